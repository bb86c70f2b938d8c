; expect: sat
; QF_BVFP: bit-vectors reinterpreted and converted.
(set-logic QF_BVFP)
(declare-fun b () (_ BitVec 32))
(declare-fun n () (_ BitVec 32))
(define-fun f () Float32 ((_ to_fp 8 24) b))
(assert (fp.gt f (fp #b0 #b10000000 #b01000000000000000000000)))
(assert (fp.lt f (fp #b0 #b10000000 #b10000000000000000000000)))
(assert (= ((_ extract 3 0) b) #x5))
(check-sat)
(get-value (b f))
