// npubuild xdna kernel matmul_i8_64x256_256x256
// op: matmul, dtype: i8 (one-dispatch whole-array int8 GEMM, int32 accumulation)
// problem: a [64, 256] (M=64, K=256), b [256, 256] (N=256); padded by the runtime to 64 x 256 x 256; one dispatch per run
// device npu2, partition npu2: 4 rows x 8 column(s) = 32 cores, 1 C tile(s) of 16x32 per core, 1 K-block(s) of 256 each
// microkernel mm_aie2p_i8_i32_16x256x32.o: aie_kernels/aie2p/mm.cc -Di8_i32_ONLY -DDIM_M=16 -DDIM_K=256 -DDIM_N=32 (aie2p, mmul 8x8x8), stack 3328 bytes
// streams (mlir-aie whole_array.py): A broadcast along core rows, B along core columns, C joined per column; mem-tile dimensionsToStream does the sub-tiling
// host buffers (XRT group id: name (shape dtype, row-major)): 3: a_codes (64x256 i8); 4: b_codes (256x256 i8); 5: c_acc (64x256 i32)
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
    aie.objectfifo @A_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<4096xi8>>
    aie.objectfifo @A_L3L2_1(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<4096xi8>>
    aie.objectfifo @A_L3L2_2(%shim_4_0, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<4096xi8>>
    aie.objectfifo @A_L3L2_3(%shim_6_0, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<4096xi8>>
    aie.objectfifo @A_L2L1_0(%mem_0_1 dimensionsToStream [<size = 2, stride = 2048>, <size = 32, stride = 8>, <size = 8, stride = 256>, <size = 8, stride = 1>], {%core_0_2, %core_1_2, %core_2_2, %core_3_2, %core_4_2, %core_5_2, %core_6_2, %core_7_2}, 2 : i32) : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L2L1_1(%mem_2_1 dimensionsToStream [<size = 2, stride = 2048>, <size = 32, stride = 8>, <size = 8, stride = 256>, <size = 8, stride = 1>], {%core_0_3, %core_1_3, %core_2_3, %core_3_3, %core_4_3, %core_5_3, %core_6_3, %core_7_3}, 2 : i32) : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L2L1_2(%mem_4_1 dimensionsToStream [<size = 2, stride = 2048>, <size = 32, stride = 8>, <size = 8, stride = 256>, <size = 8, stride = 1>], {%core_0_4, %core_1_4, %core_2_4, %core_3_4, %core_4_4, %core_5_4, %core_6_4, %core_7_4}, 2 : i32) : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L2L1_3(%mem_6_1 dimensionsToStream [<size = 2, stride = 2048>, <size = 32, stride = 8>, <size = 8, stride = 256>, <size = 8, stride = 1>], {%core_0_5, %core_1_5, %core_2_5, %core_3_5, %core_4_5, %core_5_5, %core_6_5, %core_7_5}, 2 : i32) : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @B_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_0(%mem_0_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_0_2, %core_0_3, %core_0_4, %core_0_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_1(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_1(%mem_1_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_1_2, %core_1_3, %core_1_4, %core_1_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_2(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_2(%mem_2_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_2_2, %core_2_3, %core_2_4, %core_2_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_3(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_3(%mem_3_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_3_2, %core_3_3, %core_3_4, %core_3_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_4(%shim_4_0, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_4(%mem_4_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_4_2, %core_4_3, %core_4_4, %core_4_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_5(%shim_5_0, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_5(%mem_5_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_5_2, %core_5_3, %core_5_4, %core_5_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_6(%shim_6_0, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_6(%mem_6_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_6_2, %core_6_3, %core_6_4, %core_6_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
    aie.objectfifo @B_L3L2_7(%shim_7_0, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<8192xi8>>
    aie.objectfifo @B_L2L1_7(%mem_7_1 dimensionsToStream [<size = 32, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%core_7_2, %core_7_3, %core_7_4, %core_7_5}, 2 : i32) : !aie.objectfifo<memref<256x32xi8>>
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
    aie.objectfifo.link [@B_L3L2_0] -> [@B_L2L1_0] ([] [])
    aie.objectfifo.link [@B_L3L2_1] -> [@B_L2L1_1] ([] [])
    aie.objectfifo.link [@B_L3L2_2] -> [@B_L2L1_2] ([] [])
    aie.objectfifo.link [@B_L3L2_3] -> [@B_L2L1_3] ([] [])
    aie.objectfifo.link [@B_L3L2_4] -> [@B_L2L1_4] ([] [])
    aie.objectfifo.link [@B_L3L2_5] -> [@B_L2L1_5] ([] [])
    aie.objectfifo.link [@B_L3L2_6] -> [@B_L2L1_6] ([] [])
    aie.objectfifo.link [@B_L3L2_7] -> [@B_L2L1_7] ([] [])
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
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_0(Consume, 1)
        aie.objectfifo.release @C_L1L2_0_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_0(Consume, 1)
        aie.objectfifo.release @C_L1L2_0_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_0(Consume, 1)
        aie.objectfifo.release @C_L1L2_0_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_0(Consume, 1)
        aie.objectfifo.release @C_L1L2_0_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_1(Consume, 1)
        aie.objectfifo.release @C_L1L2_1_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_1(Consume, 1)
        aie.objectfifo.release @C_L1L2_1_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_1(Consume, 1)
        aie.objectfifo.release @C_L1L2_1_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_1(Consume, 1)
        aie.objectfifo.release @C_L1L2_1_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_2(Consume, 1)
        aie.objectfifo.release @C_L1L2_2_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_2(Consume, 1)
        aie.objectfifo.release @C_L1L2_2_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_2(Consume, 1)
        aie.objectfifo.release @C_L1L2_2_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_2(Consume, 1)
        aie.objectfifo.release @C_L1L2_2_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_3(Consume, 1)
        aie.objectfifo.release @C_L1L2_3_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_3(Consume, 1)
        aie.objectfifo.release @C_L1L2_3_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_3(Consume, 1)
        aie.objectfifo.release @C_L1L2_3_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_3(Consume, 1)
        aie.objectfifo.release @C_L1L2_3_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_4(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_4(Consume, 1)
        aie.objectfifo.release @C_L1L2_4_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_3 = aie.core(%core_4_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_4(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_4(Consume, 1)
        aie.objectfifo.release @C_L1L2_4_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_4 = aie.core(%core_4_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_4(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_4(Consume, 1)
        aie.objectfifo.release @C_L1L2_4_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_4_5 = aie.core(%core_4_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_4_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_4(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_4(Consume, 1)
        aie.objectfifo.release @C_L1L2_4_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_5(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_5(Consume, 1)
        aie.objectfifo.release @C_L1L2_5_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_3 = aie.core(%core_5_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_5(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_5(Consume, 1)
        aie.objectfifo.release @C_L1L2_5_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_4 = aie.core(%core_5_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_5(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_5(Consume, 1)
        aie.objectfifo.release @C_L1L2_5_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_5_5 = aie.core(%core_5_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_5_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_5(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_5(Consume, 1)
        aie.objectfifo.release @C_L1L2_5_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_6(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_6(Consume, 1)
        aie.objectfifo.release @C_L1L2_6_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_3 = aie.core(%core_6_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_6(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_6(Consume, 1)
        aie.objectfifo.release @C_L1L2_6_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_4 = aie.core(%core_6_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_6(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_6(Consume, 1)
        aie.objectfifo.release @C_L1L2_6_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_6_5 = aie.core(%core_6_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_6_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_6(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_6(Consume, 1)
        aie.objectfifo.release @C_L1L2_6_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_0(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_7(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_0(Consume, 1)
        aie.objectfifo.release @B_L2L1_7(Consume, 1)
        aie.objectfifo.release @C_L1L2_7_0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_3 = aie.core(%core_7_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_1(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_7(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_1(Consume, 1)
        aie.objectfifo.release @B_L2L1_7(Consume, 1)
        aie.objectfifo.release @C_L1L2_7_1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_4 = aie.core(%core_7_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_2(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_2(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_7(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_2(Consume, 1)
        aie.objectfifo.release @B_L2L1_7(Consume, 1)
        aie.objectfifo.release @C_L1L2_7_2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_7_5 = aie.core(%core_7_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_7_3(Produce, 1) : !aie.objectfifosubview<memref<16x32xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x32xi32>> -> memref<16x32xi32>
        func.call @zero_i32(%acc) : (memref<16x32xi32>) -> ()
        %a_sv = aie.objectfifo.acquire @A_L2L1_3(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
        %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
        %b_sv = aie.objectfifo.acquire @B_L2L1_7(Consume, 1) : !aie.objectfifosubview<memref<256x32xi8>>
        %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x32xi8>> -> memref<256x32xi8>
        func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x32xi8>, memref<16x32xi32>) -> ()
        aie.objectfifo.release @A_L2L1_3(Consume, 1)
        aie.objectfifo.release @B_L2L1_7(Consume, 1)
        aie.objectfifo.release @C_L1L2_7_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    aie.runtime_sequence(%a_codes: memref<16384xi8>, %b_codes: memref<65536xi8>, %c_acc: memref<16384xi32>) {
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 0][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_0} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 1, 16, 256][0, 256, 256, 1]) {id = 1 : i64, metadata = @A_L3L2_0} : memref<16384xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 0][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_0} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 32][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_1} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 4096][1, 1, 16, 256][0, 256, 256, 1]) {id = 1 : i64, metadata = @A_L3L2_1} : memref<16384xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 32][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_1} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 64][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_2} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 8192][1, 1, 16, 256][0, 256, 256, 1]) {id = 1 : i64, metadata = @A_L3L2_2} : memref<16384xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 64][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_2} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 96][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_3} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 12288][1, 1, 16, 256][0, 256, 256, 1]) {id = 1 : i64, metadata = @A_L3L2_3} : memref<16384xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 96][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_3} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 128][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_4} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 128][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_4} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 160][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_5} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 160][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_5} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 192][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_6} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 192][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_6} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 224][1, 1, 64, 32][16384, 256, 256, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_7} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 224][1, 1, 256, 32][256, 65536, 256, 1]) {id = 2 : i64, metadata = @B_L3L2_7} : memref<65536xi8>
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
