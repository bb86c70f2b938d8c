; expect: sat
; QF_ABVFP: four bytes of an array read little-endian, then reinterpreted as a float.
(set-logic QF_ABVFP)
(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
(define-fun f () Float32 ((_ to_fp 8 24) (concat (select a #x00000003) (select a #x00000002) (select a #x00000001) (select a #x00000000))))
(define-fun one () Float32 (fp #b0 #b01111111 #b00000000000000000000000))
(define-fun two () Float32 (fp #b0 #b10000000 #b00000000000000000000000))
(assert (fp.gt f one))
(assert (fp.lt (fp.mul RNE f f) two))
(assert (= (select a #x00000000) #x01))
(check-sat)
(get-model)
