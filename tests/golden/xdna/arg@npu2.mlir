// npubuild xdna kernel argmax_f32_16x256_index_dtype-i32
// op: argmax, dtype: f32, attrs: {"axis":-1,"index_dtype":"i32","keepdims":false,"select_last_index":false}
// inputs: x: 16x256 f32; output: y: 16 i32
// device npu2, partition npu2_2col: last_axis split, 16 rows in chunks of 8, 2 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 4096 x f32); 4: y (y 16 x i32)
module {
  aie.device(npu2_2col) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<8x256xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<8x256xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<8xi32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<8xi32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<8x256xf32>>
    aie.objectfifo @x_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<8x256xf32>>
    aie.objectfifo @y_c1(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<8xi32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<8xi32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1] ([] [])
    aie.objectfifo.link [@y_c1] -> [@y_c1_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<8x256xf32>, %out_y: memref<8xi32>) {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      %c255 = arith.constant 255 : index
      scf.for %i0 = %c0 to %c8 step %c1 {
        %v0 = memref.load %in_x[%i0, %c0] : memref<8x256xf32>
        %v1:2 = scf.for %i1 = %c0 to %c255 step %c1 iter_args(%v2 = %v0, %v3 = %c0) -> (f32, index) {
          %v4 = arith.addi %i1, %c1 : index
          %v5 = memref.load %in_x[%i0, %v4] : memref<8x256xf32>
          %v6 = arith.cmpf ugt, %v5, %v2 : f32
          %v7 = arith.cmpf ord, %v2, %v2 : f32
          %v8 = arith.andi %v6, %v7 : i1
          %v9 = arith.select %v8, %v5, %v2 : f32
          %v10 = arith.select %v8, %v4, %v3 : index
          scf.yield %v9, %v10 : f32, index
        }
        %v11 = arith.index_cast %v1#1 : index to i32
        memref.store %v11, %out_y[%i0] : memref<8xi32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<8x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<8x256xf32>> -> memref<8x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<8xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<8xi32>> -> memref<8xi32>
        func.call @body(%s0, %o) : (memref<8x256xf32>, memref<8xi32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1(Consume, 1) : !aie.objectfifosubview<memref<8x256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<8x256xf32>> -> memref<8x256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1(Produce, 1) : !aie.objectfifosubview<memref<8xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<8xi32>> -> memref<8xi32>
        func.call @body(%s0, %o) : (memref<8x256xf32>, memref<8xi32>) -> ()
        aie.objectfifo.release @x_c1(Consume, 1)
        aie.objectfifo.release @y_c1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<4096xf32>, %y: memref<16xi32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<16xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<4096xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 8][1, 1, 1, 8][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<16xi32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
    }
  }
}
