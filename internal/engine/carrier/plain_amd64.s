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

// func indexSpecialSSE2(data []byte) int
TEXT ·indexSpecialSSE2(SB), NOSPLIT, $0-32
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

// The AVX2 path classifies a byte by its two nibbles with two table
// look-ups (VPSHUFB): specialHi[x>>4] & specialLo[x&15] is nonzero exactly
// for a special byte. Bit 0 marks the controls (high nibble 0, low nibble
// not tab, LF or CR), bit 1 every byte of high nibble 1 or 8..F (C0
// controls 0x10..0x1F and every non-ASCII byte), bit 2 DEL (0x7F). Six
// instructions for 32 bytes, where the SSE2 test takes twelve for 16.
DATA specialHi<>+0(SB)/8, $0x0400000000000201
DATA specialHi<>+8(SB)/8, $0x0202020202020202
GLOBL specialHi<>(SB), RODATA|NOPTR, $16
DATA specialLo<>+0(SB)/8, $0x0303030303030303
DATA specialLo<>+8(SB)/8, $0x0703020303020203
GLOBL specialLo<>(SB), RODATA|NOPTR, $16
DATA lowNibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA lowNibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL lowNibble<>(SB), RODATA|NOPTR, $16

// SPECIAL(x, t) leaves in t a nonzero byte exactly where x holds a special
// byte; x is clobbered. Y8, Y9 and Y10 hold the tables and the nibble mask.
#define SPECIAL(x, t) \
	VPSRLW  $4, x, t  \
	VPAND   Y10, t, t \
	VPAND   Y10, x, x \
	VPSHUFB t, Y8, t  \
	VPSHUFB x, Y9, x  \
	VPAND   x, t, t

// SPECIAL16 is SPECIAL on 16 bytes, in the low halves of the same registers.
#define SPECIAL16(x, t) \
	VPSRLW  $4, x, t  \
	VPAND   X10, t, t \
	VPAND   X10, x, x \
	VPSHUFB t, X8, t  \
	VPSHUFB x, X9, x  \
	VPAND   x, t, t

// func indexSpecialAVX2(data []byte) int
TEXT ·indexSpecialAVX2(SB), NOSPLIT, $0-32
	MOVQ data_base+0(FP), SI
	MOVQ data_len+8(FP), BX
	MOVQ SI, DI
	VBROADCASTI128 specialHi<>(SB), Y8
	VBROADCASTI128 specialLo<>(SB), Y9
	VBROADCASTI128 lowNibble<>(SB), Y10

avx64:
	CMPQ BX, $64
	JB   avx32
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	SPECIAL(Y0, Y2)
	SPECIAL(Y1, Y3)
	VPOR   Y2, Y3, Y3
	VPTEST Y3, Y3
	JNZ    avx32       // a special byte in these 64: find it 32 at a time
	ADDQ $64, SI
	SUBQ $64, BX
	JMP  avx64

avx32:
	CMPQ BX, $32
	JB   avx16
	VMOVDQU 0(SI), Y0
	SPECIAL(Y0, Y2)
	VPXOR     Y1, Y1, Y1
	VPCMPEQB  Y1, Y2, Y2
	VPMOVMSKB Y2, AX
	XORL      $0xffffffff, AX
	JNZ       avxfound
	ADDQ $32, SI
	SUBQ $32, BX
	JMP  avx32

avx16:
	// The length is a multiple of 16: at most one block of 16 is left.
	CMPQ BX, $16
	JB   avxnone
	VMOVDQU 0(SI), X0
	SPECIAL16(X0, X2)
	VPXOR     X1, X1, X1
	VPCMPEQB  X1, X2, X2
	VPMOVMSKB X2, AX
	XORL      $0xffff, AX
	JNZ       avxfound
	ADDQ $16, SI

avxnone:
	VZEROUPPER
	SUBQ DI, SI
	MOVQ SI, ret+24(FP)
	RET

avxfound:
	VZEROUPPER
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ AX, SI
	MOVQ SI, ret+24(FP)
	RET

// func cpuHasAVX2() bool: golang.org/x/sys/cpu's X86.HasAVX2 test, run on
// first use (cpuid.go): leaf 7 exists, the OS saves the YMM state
// (CPUID.1:ECX.OSXSAVE and XCR0's SSE and AVX bits) and CPUID.7:EBX.AVX2.
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	XORL CX, CX
	XORL AX, AX
	CPUID
	CMPL AX, $7
	JLT  noavx2
	MOVL $1, AX
	XORL CX, CX
	CPUID
	BTL  $27, CX
	JCC  noavx2
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  noavx2
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX
	JCC  noavx2
	MOVB $1, ret+0(FP)
	RET
noavx2:
	MOVB $0, ret+0(FP)
	RET
