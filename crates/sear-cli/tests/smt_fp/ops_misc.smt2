; expect: sat
; fma, sqrt, rem, min, max, abs, neg, unsigned conversion.
(set-logic QF_FP)
(declare-fun x () Float32)
(declare-fun y () Float32)
(declare-fun z () Float32)
(define-fun two () Float32 (fp #b0 #b10000000 #b00000000000000000000000))
(assert (= (fp.rem x two) (fp.neg (fp.min (fp.abs y) (_ +oo 8 24)))))
(assert (fp.gt (fp.max x y) two))
(assert (fp.isNormal y))
(assert (= ((_ to_fp_unsigned 8 24) RNE #xff) (fp.add RNE z z)))
(check-sat)
(get-model)
