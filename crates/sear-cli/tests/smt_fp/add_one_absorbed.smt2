; expect: sat
; x + 1 = x (SMT-LIB equality): large magnitudes, infinities and NaNs satisfy it.
(set-logic QF_FP)
(declare-fun x () Float32)
(define-fun one () Float32 (fp #b0 #b01111111 #b00000000000000000000000))
(assert (= (fp.add RNE x one) x))
(assert (not (fp.isNaN x)))
(assert (not (fp.isInfinite x)))
(check-sat)
(get-model)
