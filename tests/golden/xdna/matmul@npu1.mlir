// npubuild xdna kernel matmul_i8_64x256_256x256
// op: matmul, dtype: i8 (int8 GEMM microkernel overlay, int32 accumulation)
// problem: a [64, 256] (M=64, K=256), b [256, 256] (N=256); host-blocked into 1 x 1 x 1 dispatches (M, K, N blocks, zero padded, K-blocks summed in int32)
// device npu1, partition npu1: one dispatch computes C[64, 256] = A[64, 256] . B[256, 256] on 4 core(s) (row 2), 4 K-block(s) of 64 per core
// microkernel mm_aie2_i8_i32_64x64x64.o: aie_kernels/aie2/mm.cc -Di8_i32_ONLY -DDIM_M=64 -DDIM_K=64 -DDIM_N=64 -DVECTORIZED_ONLY (aie2, mmul 4x8x8), stack 3328 bytes
// streams: A broadcast shim(0,0) -> mem(0,1) -> every core; B and C per column through its mem tile
// host buffers (XRT group id: name (shape dtype, layout in npubuild.emitters.gemm_layout)): 3: a_tile (64x256 i8, tile_a); 4: b_tiles (256x256 i8, tile_b); 5: c_tile (64x256 i32, untile_c)
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
    func.func private @zero_i32(memref<64x64xi32>) attributes {link_with = "mm_aie2_i8_i32_64x64x64.o"}
    func.func private @matmul_i8_i32(memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>) attributes {link_with = "mm_aie2_i8_i32_64x64x64.o"}
    aie.objectfifo @a_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @a(%mem_0_1, {%core_0_2, %core_1_2, %core_2_2, %core_3_2}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c0_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c1_shim(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c2_shim(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c2(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c3_shim(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @b_c3(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<64x64xi8>>
    aie.objectfifo @c_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c1(%core_1_2, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c2(%core_2_2, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c3(%core_3_2, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo @c_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<64x64xi32>>
    aie.objectfifo.link [@a_shim] -> [@a] ([] [])
    aie.objectfifo.link [@b_c0_shim] -> [@b_c0] ([] [])
    aie.objectfifo.link [@b_c1_shim] -> [@b_c1] ([] [])
    aie.objectfifo.link [@b_c2_shim] -> [@b_c2] ([] [])
    aie.objectfifo.link [@b_c3_shim] -> [@b_c3] ([] [])
    aie.objectfifo.link [@c_c0] -> [@c_c0_shim] ([] [])
    aie.objectfifo.link [@c_c1] -> [@c_c1_shim] ([] [])
    aie.objectfifo.link [@c_c2] -> [@c_c2_shim] ([] [])
    aie.objectfifo.link [@c_c3] -> [@c_c3_shim] ([] [])
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @c_c0(Produce, 1) : !aie.objectfifosubview<memref<64x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<64x64xi32>> -> memref<64x64xi32>
        func.call @zero_i32(%acc) : (memref<64x64xi32>) -> ()
        scf.for %kb = %c0 to %c4 step %c1 {
          %a_sv = aie.objectfifo.acquire @a(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          %b_sv = aie.objectfifo.acquire @b_c0(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>) -> ()
          aie.objectfifo.release @a(Consume, 1)
          aie.objectfifo.release @b_c0(Consume, 1)
        }
        aie.objectfifo.release @c_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @c_c1(Produce, 1) : !aie.objectfifosubview<memref<64x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<64x64xi32>> -> memref<64x64xi32>
        func.call @zero_i32(%acc) : (memref<64x64xi32>) -> ()
        scf.for %kb = %c0 to %c4 step %c1 {
          %a_sv = aie.objectfifo.acquire @a(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          %b_sv = aie.objectfifo.acquire @b_c1(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>) -> ()
          aie.objectfifo.release @a(Consume, 1)
          aie.objectfifo.release @b_c1(Consume, 1)
        }
        aie.objectfifo.release @c_c1(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @c_c2(Produce, 1) : !aie.objectfifosubview<memref<64x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<64x64xi32>> -> memref<64x64xi32>
        func.call @zero_i32(%acc) : (memref<64x64xi32>) -> ()
        scf.for %kb = %c0 to %c4 step %c1 {
          %a_sv = aie.objectfifo.acquire @a(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          %b_sv = aie.objectfifo.acquire @b_c2(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>) -> ()
          aie.objectfifo.release @a(Consume, 1)
          aie.objectfifo.release @b_c2(Consume, 1)
        }
        aie.objectfifo.release @c_c2(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %acc_sv = aie.objectfifo.acquire @c_c3(Produce, 1) : !aie.objectfifosubview<memref<64x64xi32>>
        %acc = aie.objectfifo.subview.access %acc_sv[0] : !aie.objectfifosubview<memref<64x64xi32>> -> memref<64x64xi32>
        func.call @zero_i32(%acc) : (memref<64x64xi32>) -> ()
        scf.for %kb = %c0 to %c4 step %c1 {
          %a_sv = aie.objectfifo.acquire @a(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %a = aie.objectfifo.subview.access %a_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          %b_sv = aie.objectfifo.acquire @b_c3(Consume, 1) : !aie.objectfifosubview<memref<64x64xi8>>
          %b = aie.objectfifo.subview.access %b_sv[0] : !aie.objectfifosubview<memref<64x64xi8>> -> memref<64x64xi8>
          func.call @matmul_i8_i32(%a, %b, %acc) : (memref<64x64xi8>, memref<64x64xi8>, memref<64x64xi32>) -> ()
          aie.objectfifo.release @a(Consume, 1)
          aie.objectfifo.release @b_c3(Consume, 1)
        }
        aie.objectfifo.release @c_c3(Produce, 1)
      }
      aie.end
    } {stack_size = 3328 : i32}
    aie.runtime_sequence(%a_tile: memref<16384xi8>, %b_tiles: memref<65536xi8>, %c_tile: memref<16384xi32>) {
      aiex.npu.dma_memcpy_nd(%a_tile[0, 0, 0, 0][1, 1, 1, 16384][0, 0, 0, 1]) {id = 0 : i64, metadata = @a_shim} : memref<16384xi8>
      aiex.npu.dma_memcpy_nd(%b_tiles[0, 0, 0, 0][1, 1, 1, 16384][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c0_shim} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%b_tiles[0, 0, 0, 16384][1, 1, 1, 16384][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c1_shim} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%b_tiles[0, 0, 0, 32768][1, 1, 1, 16384][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c2_shim} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%b_tiles[0, 0, 0, 49152][1, 1, 1, 16384][0, 0, 0, 1]) {id = 1 : i64, metadata = @b_c3_shim} : memref<65536xi8>
      aiex.npu.dma_memcpy_nd(%c_tile[0, 0, 0, 0][1, 1, 1, 4096][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @c_c0_shim} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%c_tile[0, 0, 0, 4096][1, 1, 1, 4096][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @c_c1_shim} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%c_tile[0, 0, 0, 8192][1, 1, 1, 4096][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @c_c2_shim} : memref<16384xi32>
      aiex.npu.dma_memcpy_nd(%c_tile[0, 0, 0, 12288][1, 1, 1, 4096][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @c_c3_shim} : memref<16384xi32>
      aiex.npu.dma_wait {symbol = @c_c0_shim}
      aiex.npu.dma_wait {symbol = @c_c1_shim}
      aiex.npu.dma_wait {symbol = @c_c2_shim}
      aiex.npu.dma_wait {symbol = @c_c3_shim}
    }
  }
}
