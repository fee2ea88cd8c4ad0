//go:build amd64 && !purego

#include "textflag.h"

// A byte is plain when it is printable ASCII (0x20..0x7E) or tab, LF or
// CR. Printable: x + 0x60, read as a signed byte, is at most -34 exactly
// for x in 0x20..0x7E (0x20 maps to -128, 0x7E to -34, 0x7F to -33, bytes
// below 0x20 to 96..127 and bytes from 0x80 to -32..95), and PCMPGTB gives
// -33 > x + 0x60. Tab, LF and CR are three PCMPEQB.

// PLAIN(x, t, u) leaves in x a mask of its plain bytes (0xFF each);
// t and u are scratch.
#define PLAIN(x, t, u) \
	MOVO  x, t      \
	PADDB X8, t     \
	MOVO  X9, u     \
	PCMPGTB t, u    \
	MOVO  x, t      \
	PCMPEQB X10, t  \
	POR   t, u      \
	MOVO  x, t      \
	PCMPEQB X11, t  \
	POR   t, u      \
	PCMPEQB X12, x  \
	POR   u, x

// func indexSpecialVector(data []byte) int
TEXT ·indexSpecialVector(SB), NOSPLIT, $0-32
	MOVQ data_base+0(FP), SI
	MOVQ data_len+8(FP), BX
	MOVQ SI, DI
	MOVQ $0x6060606060606060, AX
	MOVQ AX, X8
	PUNPCKLQDQ X8, X8
	MOVQ $0xdfdfdfdfdfdfdfdf, AX
	MOVQ AX, X9
	PUNPCKLQDQ X9, X9
	MOVQ $0x0909090909090909, AX
	MOVQ AX, X10
	PUNPCKLQDQ X10, X10
	MOVQ $0x0a0a0a0a0a0a0a0a, AX
	MOVQ AX, X11
	PUNPCKLQDQ X11, X11
	MOVQ $0x0d0d0d0d0d0d0d0d, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12

loop64:
	CMPQ BX, $64
	JB   loop16
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	PLAIN(X0, X4, X5)
	PLAIN(X1, X6, X7)
	PLAIN(X2, X4, X5)
	PLAIN(X3, X6, X7)
	PAND X1, X0
	PAND X3, X2
	PAND X2, X0
	PMOVMSKB X0, AX
	CMPL AX, $0xffff
	JNE  loop16        // a special byte in these 64: find it 16 at a time
	ADDQ $64, SI
	SUBQ $64, BX
	JMP  loop64

loop16:
	CMPQ BX, $16
	JB   none
	MOVOU 0(SI), X0
	PLAIN(X0, X4, X5)
	PMOVMSKB X0, AX
	XORL $0xffff, AX
	JNZ  found
	ADDQ $16, SI
	SUBQ $16, BX
	JMP  loop16

found:
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ AX, SI
	MOVQ SI, ret+24(FP)
	RET

none:
	SUBQ DI, SI
	MOVQ SI, ret+24(FP)
	RET
