// npubuild xdna kernel matmul_i8_1x512_512x1000
// op: matmul, dtype: i8 (one-dispatch gemv int8 GEMM, int32 accumulation)
// problem: a [1, 512] (M=1, K=512), b [512, 1000] (N=1000); padded by the runtime to 16 x 512 x 1024; one dispatch per run
// device npu1, partition npu1: 4 rows x 4 column(s) = 16 cores, 1 C tile(s) of 16x64 per core, 2 K-block(s) of 256 each
// microkernel mm_aie2_i8_i32_16x256x64.o: aie_kernels/aie2/mm.cc -Di8_i32_ONLY -DDIM_M=16 -DDIM_K=256 -DDIM_N=64 -DVECTORIZED_ONLY (aie2, mmul 4x8x8), stack 3328 bytes
// streams (GEMV): one row of A padded to a tile by the mem tile, broadcast from the mem tile of every second column to the 8 cores of two columns; B distributed over each column's 4 cores (a different N-tile per core row); C joined per column; mem-tile dimensionsToStream does the sub-tiling
// host buffers (XRT group id: name (shape dtype, row-major)): 3: a_codes (16x512 i8); 4: b_codes (512x1024 i8); 5: c_acc (16x1024 i32)
module {
  aie.device(npu1) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %shim_2_0 = aie.tile(2, 0)
    %shim_3_0 = aie.tile(3, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %mem_2_1 = aie.tile(2, 1)
    %mem_3_1 = aie.tile(3, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    %core_2_2 = aie.tile(2, 2)
    %core_3_2 = aie.tile(3, 2)
    %core_0_3 = aie.tile(0, 3)
    %core_1_3 = aie.tile(1, 3)
    %core_2_3 = aie.tile(2, 3)
    %core_3_3 = aie.tile(3, 3)
    %core_0_4 = aie.tile(0, 4)
    %core_1_4 = aie.tile(1, 4)
    %core_2_4 = aie.tile(2, 4)
    %core_3_4 = aie.tile(3, 4)
    %core_0_5 = aie.tile(0, 5)
    %core_1_5 = aie.tile(1, 5)
    %core_2_5 = aie.tile(2, 5)
    %core_3_5 = aie.tile(3, 5)
    func.func private @zero_i32(memref<16x64xi32>) attributes {link_with = "mm_aie2_i8_i32_16x256x64.o"}
    func.func private @matmul_i8_i32(memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) attributes {link_with = "mm_aie2_i8_i32_16x256x64.o"}
    aie.objectfifo @A_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_0(%mem_0_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_0_2, %core_0_3, %core_0_4, %core_0_5, %core_1_2, %core_1_3, %core_1_4, %core_1_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 3>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 24>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @A_L3L2_1(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @A_L2L1_1(%mem_2_1 dimensionsToStream [<size = 1, stride = 256>, <size = 32, stride = 8>, <size = 8, stride = 1>], {%core_2_2, %core_2_3, %core_2_4, %core_2_5, %core_3_2, %core_3_3, %core_3_4, %core_3_5}, 2 : i32) {padDimensions = #aie<bd_pad_layout_array[<const_pad_before = 0, const_pad_after = 3>, <const_pad_before = 0, const_pad_after = 0>, <const_pad_before = 0, const_pad_after = 24>]>} : !aie.objectfifo<memref<16x256xi8>>
    aie.objectfifo @B_L3L2_0(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<65536xi8>>
    aie.objectfifo @B_L2L1_0_0(%mem_0_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_0_1(%mem_0_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_0_2(%mem_0_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_0_3(%mem_0_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L3L2_1(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<65536xi8>>
    aie.objectfifo @B_L2L1_1_0(%mem_1_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_1_1(%mem_1_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_1_2(%mem_1_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_1_3(%mem_1_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L3L2_2(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<65536xi8>>
    aie.objectfifo @B_L2L1_2_0(%mem_2_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_2_1(%mem_2_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_2_2(%mem_2_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_2_3(%mem_2_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L3L2_3(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<65536xi8>>
    aie.objectfifo @B_L2L1_3_0(%mem_3_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_3_1(%mem_3_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_3_2(%mem_3_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @B_L2L1_3_3(%mem_3_1 dimensionsToStream [<size = 32, stride = 512>, <size = 8, stride = 8>, <size = 8, stride = 64>, <size = 8, stride = 1>], {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<256x64xi8>>
    aie.objectfifo @C_L1L2_0_0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_0_1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_0_2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_0_3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L2L3_0(%mem_0_1 dimensionsToStream [<size = 4, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%shim_0_0}, 2 : i32) : !aie.objectfifo<memref<4096xi32>>
    aie.objectfifo @C_L1L2_1_0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_1_1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_1_2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_1_3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L2L3_1(%mem_1_1 dimensionsToStream [<size = 4, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%shim_1_0}, 2 : i32) : !aie.objectfifo<memref<4096xi32>>
    aie.objectfifo @C_L1L2_2_0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_2_1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_2_2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_2_3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L2L3_2(%mem_2_1 dimensionsToStream [<size = 4, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%shim_2_0}, 2 : i32) : !aie.objectfifo<memref<4096xi32>>
    aie.objectfifo @C_L1L2_3_0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_3_1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_3_2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L1L2_3_3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<16x64xi32>>
    aie.objectfifo @C_L2L3_3(%mem_3_1 dimensionsToStream [<size = 4, stride = 256>, <size = 4, stride = 8>, <size = 8, stride = 32>, <size = 8, stride = 1>], {%shim_3_0}, 2 : i32) : !aie.objectfifo<memref<4096xi32>>
    aie.objectfifo.link [@A_L3L2_0] -> [@A_L2L1_0] ([] [])
    aie.objectfifo.link [@A_L3L2_1] -> [@A_L2L1_1] ([] [])
    aie.objectfifo.link [@B_L3L2_0] -> [@B_L2L1_0_0, @B_L2L1_0_1, @B_L2L1_0_2, @B_L2L1_0_3] ([] [0, 16384, 32768, 49152])
    aie.objectfifo.link [@B_L3L2_1] -> [@B_L2L1_1_0, @B_L2L1_1_1, @B_L2L1_1_2, @B_L2L1_1_3] ([] [0, 16384, 32768, 49152])
    aie.objectfifo.link [@B_L3L2_2] -> [@B_L2L1_2_0, @B_L2L1_2_1, @B_L2L1_2_2, @B_L2L1_2_3] ([] [0, 16384, 32768, 49152])
    aie.objectfifo.link [@B_L3L2_3] -> [@B_L2L1_3_0, @B_L2L1_3_1, @B_L2L1_3_2, @B_L2L1_3_3] ([] [0, 16384, 32768, 49152])
    aie.objectfifo.link [@C_L1L2_0_0, @C_L1L2_0_1, @C_L1L2_0_2, @C_L1L2_0_3] -> [@C_L2L3_0] ([0, 1024, 2048, 3072] [])
    aie.objectfifo.link [@C_L1L2_1_0, @C_L1L2_1_1, @C_L1L2_1_2, @C_L1L2_1_3] -> [@C_L2L3_1] ([0, 1024, 2048, 3072] [])
    aie.objectfifo.link [@C_L1L2_2_0, @C_L1L2_2_1, @C_L1L2_2_2, @C_L1L2_2_3] -> [@C_L2L3_2] ([0, 1024, 2048, 3072] [])
    aie.objectfifo.link [@C_L1L2_3_0, @C_L1L2_3_1, @C_L1L2_3_2, @C_L1L2_3_3] -> [@C_L2L3_3] ([0, 1024, 2048, 3072] [])
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_0(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_0(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_1(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_1(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_2(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_2(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_0_3(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_0_3(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_0(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_0(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_1(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_1(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_2(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_2(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_1_3(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_0(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_1_3(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_0(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_0(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_1(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_1(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_2(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_2(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_2_3(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_2_3(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_0(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_0(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_1(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_1(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_2(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_2(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
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
        %acc_sv = aie.objectfifo.acquire @C_L1L2_3_3(Produce, 1) : !aie.objectfifosubview<memref<16x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<16x64xi32>> -> memref<16x64xi32>
        func.call @zero_i32(%acc) : (memref<16x64xi32>) -> ()
        scf.for %kb = %c0 to %c2 step %c1 {
          %a_sv = aie.objectfifo.acquire @A_L2L1_1(Consume, 1) : !aie.objectfifosubview<memref<16x256xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<16x256xi8>> -> memref<16x256xi8>
          %b_sv = aie.objectfifo.acquire @B_L2L1_3_3(Consume, 1) : !aie.objectfifosubview<memref<256x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<256x64xi8>> -> memref<256x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<16x256xi8>, memref<256x64xi8>, memref<16x64xi32>) -> ()
          aie.objectfifo.release @A_L2L1_1(Consume, 1)
          aie.objectfifo.release @B_L2L1_3_3(Consume, 1)
        }
        aie.objectfifo.release @C_L1L2_3_3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    aie.runtime_sequence(%a_codes: memref<8192xi8>, %b_codes: memref<524288xi8>, %c_acc: memref<16384xi32>) {
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 0][1, 4, 16, 64][1024, 64, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_0} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_0} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 0][2, 4, 256, 64][262144, 64, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_0} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 256][1, 4, 16, 64][1024, 64, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_1} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 256][2, 4, 256, 64][262144, 64, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_1} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 512][1, 4, 16, 64][1024, 64, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_2} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%a_codes[0, 0, 0, 0][1, 2, 1, 256][0, 256, 512, 1]) {id = 1 : i64, metadata = @A_L3L2_1} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 512][2, 4, 256, 64][262144, 64, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_2} : memref<524288xi8>
      aiex.npu.dma_memcpy_nd(%c_acc[0, 0, 0, 768][1, 4, 16, 64][1024, 64, 1024, 1]) {id = 0 : i64, issue_token = true, metadata = @C_L2L3_3} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%b_codes[0, 0, 0, 768][2, 4, 256, 64][262144, 64, 1024, 1]) {id = 2 : i64, metadata = @B_L3L2_3} : memref<524288xi8>
      aiex.npu.dma_wait {symbol = @C_L2L3_0}
      aiex.npu.dma_wait {symbol = @C_L2L3_1}
      aiex.npu.dma_wait {symbol = @C_L2L3_2}
      aiex.npu.dma_wait {symbol = @C_L2L3_3}
    }
  }
}
