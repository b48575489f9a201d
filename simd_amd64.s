//go:build !purego

// The byte-class scans of the parser's fast path with AVX2 (simd_amd64.go).


#include "textflag.h"

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv0() (lo uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, lo+0(FP)
	RET

// Y3 holds 0x0f in every byte: the low nibble of a high-nibble shift.
DATA nibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibble<>(SB), RODATA|NOPTR, $32

DATA dots<>+0(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dots<>+8(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dots<>+16(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA dots<>+24(SB)/8, $0x2e2e2e2e2e2e2e2e
GLOBL dots<>(SB), RODATA|NOPTR, $32

DATA hyphens<>+0(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA hyphens<>+8(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA hyphens<>+16(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA hyphens<>+24(SB)/8, $0x2d2d2d2d2d2d2d2d
GLOBL hyphens<>(SB), RODATA|NOPTR, $32

// CLASSIFY leaves in Y5 0xff for each byte of Y0 that is not in the class
// of the nibble tables at (CX): a byte is in the class when the entry of
// its low nibble and the entry of its high nibble share a bit; a byte of
// 0x80 or more finds 0 in both.
#define CLASSIFY \
	VMOVDQU   (CX), Y1 \
	VMOVDQU   32(CX), Y2 \
	VMOVDQU   nibble<>(SB), Y3 \
	VPSHUFB   Y0, Y1, Y4 \
	VPSRLW    $4, Y0, Y5 \
	VPAND     Y3, Y5, Y5 \
	VPSHUFB   Y5, Y2, Y5 \
	VPAND     Y4, Y5, Y5 \
	VPXOR     Y6, Y6, Y6 \
	VPCMPEQB  Y6, Y5, Y5

// func outside32(s string, i int, t *nibbleTable) uint32
TEXT ·outside32(SB), NOSPLIT, $0-36
	MOVQ s_base+0(FP), AX
	MOVQ i+16(FP), BX
	MOVQ t+24(FP), CX
	VMOVDQU (AX)(BX*1), Y0
	CLASSIFY
	VPMOVMSKB Y5, DX
	MOVL DX, ret+32(FP)
	VZEROUPPER
	RET


// CLASSIFY2 is CLASSIFY for Y0 (into Y5) and Y10 (into Y15).
#define CLASSIFY2 \
	VMOVDQU   (CX), Y1 \
	VMOVDQU   32(CX), Y2 \
	VMOVDQU   nibble<>(SB), Y3 \
	VPXOR     Y6, Y6, Y6 \
	VPSHUFB   Y0, Y1, Y4 \
	VPSRLW    $4, Y0, Y5 \
	VPAND     Y3, Y5, Y5 \
	VPSHUFB   Y5, Y2, Y5 \
	VPAND     Y4, Y5, Y5 \
	VPCMPEQB  Y6, Y5, Y5 \
	VPSHUFB   Y10, Y1, Y14 \
	VPSRLW    $4, Y10, Y15 \
	VPAND     Y3, Y15, Y15 \
	VPSHUFB   Y15, Y2, Y15 \
	VPAND     Y14, Y15, Y15 \
	VPCMPEQB  Y6, Y15, Y15

// MASK64 sets R reg to the 64-bit mask of the top bits of Y5 (low half)
// and Y15 (high half), using DX as scratch.
#define MASK64(lo, hi, r) \
	VPMOVMSKB lo, r \
	VPMOVMSKB hi, DX \
	SHLQ      $32, DX \
	ORQ       DX, r

// func classify64(s string, i int, host, path *nibbleTable) (hostOut, dots, hyphens, pathOut uint64, ok bool)
TEXT ·classify64(SB), NOSPLIT, $0-73
	MOVQ s_base+0(FP), AX
	MOVQ s_len+8(FP), DX
	MOVQ i+16(FP), BX
	ADDQ BX, AX
	SUBQ BX, DX
	CMPQ DX, $64
	JAE  load
	// Fewer than 64 bytes from i: read past the end of s only from a
	// byte of s and within its page, which is mapped; the caller ignores
	// the bytes past the end.
	TESTQ DX, DX
	JEQ  fail
	MOVQ AX, R8
	ANDQ $4095, R8
	CMPQ R8, $4032
	JA   fail

load:
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y10
	MOVQ    host+24(FP), CX
	CLASSIFY2
	MASK64(Y5, Y15, R9)
	MOVQ    R9, hostOut+40(FP)
	MOVQ    path+32(FP), CX
	CLASSIFY2
	MASK64(Y5, Y15, R9)
	MOVQ    R9, pathOut+64(FP)
	VMOVDQU dots<>(SB), Y1
	VPCMPEQB Y1, Y0, Y5
	VPCMPEQB Y1, Y10, Y15
	MASK64(Y5, Y15, R9)
	MOVQ    R9, dots+48(FP)
	VMOVDQU hyphens<>(SB), Y1
	VPCMPEQB Y1, Y0, Y5
	VPCMPEQB Y1, Y10, Y15
	MASK64(Y5, Y15, R9)
	MOVQ    R9, hyphens+56(FP)
	MOVB    $1, ok+72(FP)
	VZEROUPPER
	RET

fail:
	MOVB $0, ok+72(FP)
	RET
