; expect: unsat
; QF_BVFP: bit-vectors reinterpreted and converted.
(set-logic QF_BVFP)
(declare-fun b () (_ BitVec 32))
(declare-fun n () (_ BitVec 32))
(define-fun f () Float32 ((_ to_fp 8 24) b))
; integers below 2^24 survive a round trip through binary32
(assert (bvslt n #x01000000))
(assert (bvsgt n #xff000000))
(assert (not (= ((_ fp.to_sbv 32) RTZ ((_ to_fp 8 24) RNE n)) n)))
(check-sat)
