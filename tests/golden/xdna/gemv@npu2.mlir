// npubuild xdna kernel matmul_i8_1x512_512x1000
// op: matmul, dtype: i8 (one-dispatch gemv int8 GEMM, int32 accumulation)
// problem: a [1, 512] (M=1, K=512), b [512, 1000] (N=1000); padded by the runtime to 16 x 512 x 1024; one dispatch per run
// device npu2, partition npu2: 4 rows x 8 column(s) = 32 cores, 1 C tile(s) of 16x32 per core, 2 K-block(s) of 256 each
// microkernel mm_aie2p_i8_i32_16x256x32.o: aie_kernels/aie2p/mm.cc -Di8_i32_ONLY -DDIM_M=16 -DDIM_K=256 -DDIM_N=32 (aie2p, mmul 8x8x8), stack 3328 bytes
// streams (GEMV): one row of A padded to a tile by the mem tile, broadcast from the mem tile of every second column to the 8 cores of two columns; B distributed over each column's 4 cores (a different N-tile per core row); C joined per column; mem-tile dimensionsToStream does the sub-tiling
// host buffers (XRT group id: name (shape dtype, row-major)): 3: a_codes (16x512 i8); 4: b_codes (512x1024 i8); 5: c_acc (16x1024 i32)
module {
  aie.device(npu2) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %shim_2_0 = aie.tile(2, 0)
    %shim_3_0 = aie.tile(3, 0)
    %shim_4_0 = aie.tile(4, 0)
    %shim_5_0 = aie.tile(5, 0)
    %shim_6_0 = aie.tile(6, 0)
    %shim_7_0 = aie.tile(7, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %mem_2_1 = aie.tile(2, 1)
    %mem_3_1 = aie.tile(3, 1)
    %mem_4_1 = aie.tile(4, 1)
    %mem_5_1 = aie.tile(5, 1)
    %mem_6_1 = aie.tile(6, 1)
    %mem_7_1 = aie.tile(7, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    %core_2_2 = aie.tile(2, 2)
    %core_3_2 = aie.tile(3, 2)
    %core_4_2 = aie.tile(4, 2)
    %core_5_2 = aie.tile(5, 2)
    %core_6_2 = aie.tile(6, 2)
    %core_7_2 = aie.tile(7, 2)
    %core_0_3 = aie.tile(0, 3)
    %core_1_3 = aie.tile(1, 3)
    %core_2_3 = aie.tile(2, 3)
    %core_3_3 = aie.tile(3, 3)
    %core_4_3 = aie.tile(4, 3)
    %core_5_3 = aie.tile(5, 3)
    %core_6_3 = aie.tile(6, 3)
    %core_7_3 = aie.tile(7, 3)
    %core_0_4 = aie.tile(0, 4)
    %core_1_4 = aie.tile(1, 4)
    %core_2_4 = aie.tile(2, 4)
    %core_3_4 = aie.tile(3, 4)
    %core_4_4 = aie.tile(4, 4)
    %core_5_4 = aie.tile(5, 4)
    %core_6_4 = aie.tile(6, 4)
    %core_7_4 = aie.tile(7, 4)
    %core_0_5 = aie.tile(0, 5)
    %core_1_5 = aie.tile(1, 5)
    %core_2_5 = aie.tile(2, 5)
    %core_3_5 = aie.tile(3, 5)
    %core_4_5 = aie.tile(4, 5)
    %core_5_5 = aie.tile(5, 5)
    %core_6_5 = aie.tile(6, 5)
    %core_7_5 = aie.tile(7, 5)
    func.func private @zero_i32(memref<16x32xi32>) attributes {link_with = "mm_aie2p_i8_i32_16x256x32.o"}
    func.func private @matmul_i8_i32(memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) attributes {link_with = "mm_aie2p_i8_i32_16x256x32.o"}
    aie.objectfifo @A_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_0(%mem_0_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_0_2, %core_0_3, %core_0_4, %core_0_5, %core_1_2, %core_1_3, %core_1_4, %core_1_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 1>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 56>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L3L2_1(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_1(%mem_2_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_2_2, %core_2_3, %core_2_4, %core_2_5, %core_3_2, %core_3_3, %core_3_4, %core_3_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 1>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 56>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L3L2_2(%shim_4_0, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_2(%mem_4_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_4_2, %core_4_3, %core_4_4, %core_4_5, %core_5_2, %core_5_3, %core_5_4, %core_5_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 1>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 56>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L3L2_3(%shim_6_0, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_3(%mem_6_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_6_2, %core_6_3, %core_6_4, %core_6_5, %core_7_2, %core_7_3, %core_7_4, %core_7_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 1>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 56>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @B_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_0_0(%mem_0_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_0_1(%mem_0_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_0_2(%mem_0_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_0_3(%mem_0_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_1(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_1_0(%mem_1_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_1_1(%mem_1_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_1_2(%mem_1_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_1_3(%mem_1_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_2(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_2_0(%mem_2_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_2_1(%mem_2_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_2_2(%mem_2_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_2_3(%mem_2_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_3(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_3_0(%mem_3_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_3_1(%mem_3_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_3_2(%mem_3_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_3_3(%mem_3_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_4(%shim_4_0, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_4_0(%mem_4_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_4_1(%mem_4_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_4_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_4_2(%mem_4_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_4_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_4_3(%mem_4_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_4_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_5(%shim_5_0, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_5_0(%mem_5_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_5_1(%mem_5_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_5_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_5_2(%mem_5_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_5_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_5_3(%mem_5_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_5_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_6(%shim_6_0, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_6_0(%mem_6_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_6_1(%mem_6_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_6_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_6_2(%mem_6_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_6_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_6_3(%mem_6_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_6_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_7(%shim_7_0, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<32768xi8>>
    aie.objectfifo @B_L2L1_7_0(%mem_7_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_7_1(%mem_7_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_7_3}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_7_2(%mem_7_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_7_4}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L2L1_7_3(%mem_7_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_7_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @C_L1L2_0_0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_0_1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_0_2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_0_3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_0(%mem_0_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_0_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_1_0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_1_1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_1_2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_1_3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_1(%mem_1_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_1_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_2_0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_2_1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_2_2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_2_3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_2(%mem_2_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_2_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_3_0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_3_1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_3_2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_3_3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_3(%mem_3_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_3_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_4_0(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_4_1(%core_4_3, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_4_2(%core_4_4, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_4_3(%core_4_5, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_4(%mem_4_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_4_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_5_0(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_5_1(%core_5_3, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_5_2(%core_5_4, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_5_3(%core_5_5, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_5(%mem_5_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_5_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_6_0(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_6_1(%core_6_3, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_6_2(%core_6_4, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_6_3(%core_6_5, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_6(%mem_6_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_6_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo @C_L1L2_7_0(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_7_1(%core_7_3, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_7_2(%core_7_4, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L1L2_7_3(%core_7_5, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<16x32xi32>>
    aie.objectfifo @C_L2L3_7(%mem_7_1 dimensionsToStream [<size = 2, stride = 256>, <size = 8, stride = 8>, <size = 4, stride = 64>, <size = 8, stride = 1>], {%shim_7_0}, 2 : i32) : !aie.objectfifo<memref<2048xi32>>
    aie.objectfifo.link [@A_L3L2_0] -> [@A_L2L1_0] ([] [])
    aie.objectfifo.link [@A_L3L2_1] -> [@A_L2L1_1] ([] [])
    aie.objectfifo.link [@A_L3L2_2] -> [@A_L2L1_2] ([] [])
    aie.objectfifo.link [@A_L3L2_3] -> [@A_L2L1_3] ([] [])
    aie.objectfifo.link [@B_L3L2_0] -> [@B_L2L1_0_0, @B_L2L1_0_1, @B_L2L1_0_2, @B_L2L1_0_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_1] -> [@B_L2L1_1_0, @B_L2L1_1_1, @B_L2L1_1_2, @B_L2L1_1_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_2] -> [@B_L2L1_2_0, @B_L2L1_2_1, @B_L2L1_2_2, @B_L2L1_2_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_3] -> [@B_L2L1_3_0, @B_L2L1_3_1, @B_L2L1_3_2, @B_L2L1_3_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_4] -> [@B_L2L1_4_0, @B_L2L1_4_1, @B_L2L1_4_2, @B_L2L1_4_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_5] -> [@B_L2L1_5_0, @B_L2L1_5_1, @B_L2L1_5_2, @B_L2L1_5_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_6] -> [@B_L2L1_6_0, @B_L2L1_6_1, @B_L2L1_6_2, @B_L2L1_6_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@B_L3L2_7] -> [@B_L2L1_7_0, @B_L2L1_7_1, @B_L2L1_7_2, @B_L2L1_7_3] ([] [0, 8192, 16384, 24576])
    aie.objectfifo.link [@C_L1L2_0_0, @C_L1L2_0_1, @C_L1L2_0_2, @C_L1L2_0_3] -> [@C_L2L3_0] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_1_0, @C_L1L2_1_1, @C_L1L2_1_2, @C_L1L2_1_3] -> [@C_L2L3_1] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_2_0, @C_L1L2_2_1, @C_L1L2_2_2, @C_L1L2_2_3] -> [@C_L2L3_2] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_3_0, @C_L1L2_3_1, @C_L1L2_3_2, @C_L1L2_3_3] -> [@C_L2L3_3] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_4_0, @C_L1L2_4_1, @C_L1L2_4_2, @C_L1L2_4_3] -> [@C_L2L3_4] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_5_0, @C_L1L2_5_1, @C_L1L2_5_2, @C_L1L2_5_3] -> [@C_L2L3_5] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_6_0, @C_L1L2_6_1, @C_L1L2_6_2, @C_L1L2_6_3] -> [@C_L2L3_6] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@C_L1L2_7_0, @C_L1L2_7_1, @C_L1L2_7_2, @C_L1L2_7_3] -> [@C_L2L3_7] ([0, 512, 1024, 1536] [])
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_0_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_0_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_0_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_0_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_0_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_0_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_0_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_0_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_1_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_1_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_1_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_1_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_1_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_1_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_0(Consume, 1)
          aie.objectfifo.release @B_L2L1_1_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_1_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_2_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_2_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_2_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_2_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_2_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_2_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_2_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_2_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_3_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_3_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_3_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_3_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_3_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_3_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_3_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_3_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_4_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_4_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_4_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_4_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_4_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_4_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_4 = aie.core(%core_4_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_4_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_4_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_4_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_5 = aie.core(%core_4_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_4_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_4_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_4_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_5_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_5_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_5_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_5_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_5_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_5_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_4 = aie.core(%core_5_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_5_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_5_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_5_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_5 = aie.core(%core_5_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_5_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_2(Consume, 1)
          aie.objectfifo.release @B_L2L1_5_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_5_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_6_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_6_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_6_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_6_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_6_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_6_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_4 = aie.core(%core_6_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_6_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_6_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_6_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_5 = aie.core(%core_6_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_6_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_6_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_6_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_7_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_7_0(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_7_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_7_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_7_1(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_7_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_4 = aie.core(%core_7_4) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_7_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_7_2(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_7_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_5 = aie.core(%core_7_5) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_7_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
          aie.objectfifo.release @A_L2L1_3(Consume, 1)
          aie.objectfifo.release @B_L2L1_7_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_7_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    aie.runtime_sequence(%a_codes: memref<8192xi8>, %b_codes: memref<524288xi8>, %c_acc: memref<16384xi32>) {
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 0][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_0} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_0} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 0][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_0} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 128][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_1} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 128][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_1} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 256][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_2} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_1} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 256][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_2} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 384][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_3} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 384][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_3} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 512][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_4} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_2} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 512][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_4} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 640][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_5} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 640][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_5} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 768][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_6} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_3} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 768][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_6} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 896][1, 4, 16, 32][1024, 32, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_7} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 896][2, 4, 256, 32][262144, 32, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_7} : memref<524288xi8>
      aiex.npu.dma_wait {symbol = @C_L2L3_0}
      aiex.npu.dma_wait {symbol = @C_L2L3_1}
      aiex.npu.dma_wait {symbol = @C_L2L3_2}
      aiex.npu.dma_wait {symbol = @C_L2L3_3}
      aiex.npu.dma_wait {symbol = @C_L2L3_4}
      aiex.npu.dma_wait {symbol = @C_L2L3_5}
      aiex.npu.dma_wait {symbol = @C_L2L3_6}
      aiex.npu.dma_wait {symbol = @C_L2L3_7}
    }
  }
}
