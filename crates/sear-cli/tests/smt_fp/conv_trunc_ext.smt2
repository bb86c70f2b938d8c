; expect: sat
; Float32 -> Float64 -> Float32 is exact; the other way round it is not; to_ubv.
(set-logic QF_FP)
(declare-fun x () Float32)
(declare-fun d () Float64)
(assert (not (= ((_ to_fp 11 53) RNE ((_ to_fp 8 24) RNE d)) d)))
(check-sat)
