; expect: unsat sat
; fp.rem is IEEE 754's remainder: a zero result has x's sign. glibc's remainder (C's, which
; sear's IeeeRem node follows) gives this x and y -0 (x's sign flipped).
(set-logic QF_FP)
(declare-fun r () Float64)
(assert (= r (fp.rem (fp #b0 #b00010101000 #b1010000011111101110001001110111011011101101110111100) (fp #b1 #b00000000001 #b0000000000000000000000000000000000000000000000000000))))
(push 1)
(assert (fp.isNegative r))
(check-sat)
(pop 1)
(assert (fp.isZero r))
(assert (fp.isPositive r))
(check-sat)
(get-model)
