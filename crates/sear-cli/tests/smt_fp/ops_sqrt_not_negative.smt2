; expect: unsat
; fma, sqrt, rem, min, max, abs, neg, unsigned conversion.
(set-logic QF_FP)
(declare-fun x () Float32)
(declare-fun y () Float32)
(declare-fun z () Float32)
(define-fun two () Float32 (fp #b0 #b10000000 #b00000000000000000000000))
(assert (fp.lt (fp.sqrt RNE (fp.abs x)) (_ -zero 8 24)))
(check-sat)
