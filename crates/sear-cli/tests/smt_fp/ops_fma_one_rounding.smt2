; expect: sat
; fma, sqrt, rem, min, max, abs, neg, unsigned conversion.
(set-logic QF_FP)
(declare-fun x () Float32)
(declare-fun y () Float32)
(declare-fun z () Float32)
(define-fun two () Float32 (fp #b0 #b10000000 #b00000000000000000000000))
(assert (not (fp.isNaN (fp.fma RNE x y z))))
(assert (not (= (fp.fma RNE x y z) (fp.add RNE (fp.mul RNE x y) z))))
(check-sat)
