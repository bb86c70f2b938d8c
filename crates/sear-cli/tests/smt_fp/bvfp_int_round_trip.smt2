; expect: sat
; QF_BVFP: bit-vectors reinterpreted and converted.
(set-logic QF_BVFP)
(declare-fun b () (_ BitVec 32))
(declare-fun n () (_ BitVec 32))
(define-fun f () Float32 ((_ to_fp 8 24) b))
(assert (not (= ((_ fp.to_sbv 32) RTZ ((_ to_fp 8 24) RNE n)) n)))
(assert (bvsgt n #x00000000))
(check-sat)
(get-value (n ((_ to_fp 8 24) RNE n)))
