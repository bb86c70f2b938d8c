; expect: sat
; Float32 -> Float64 -> Float32 is exact; the other way round it is not; to_ubv.
(set-logic QF_FP)
(declare-fun x () Float32)
(declare-fun d () Float64)
(assert (= ((_ fp.to_ubv 8) RTZ x) #xff))
(assert (fp.lt x (fp #b0 #b10000111 #b00000000000000000000000)))
(check-sat)
(get-model)
