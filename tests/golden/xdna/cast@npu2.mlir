// npubuild xdna kernel cast_f32_1024_to-i32
// op: cast, dtype: f32, attrs: {"to":"i32"}
// inputs: x: 1024 f32; output: y: 1024 i32
// device npu2, partition npu2_4col: flat split, 1024 rows in chunks of 256, 4 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 1024 x f32); 4: y (y 1024 x i32)
module {
  aie.device(npu2_4col) {
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
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c2(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c3(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<256xi32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1] ([] [])
    aie.objectfifo.link [@y_c1] -> [@y_c1_shim] ([] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2] ([] [])
    aie.objectfifo.link [@y_c2] -> [@y_c2_shim] ([] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3] ([] [])
    aie.objectfifo.link [@y_c3] -> [@y_c3_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<256xf32>, %out_y: memref<256xi32>) {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %cst3_f32 = arith.constant 2147483648.0 : f32
      %cst4_f32 = arith.constant -2147483648.0 : f32
      %cst5_f32 = arith.constant 0.0 : f32
      %c2147483647_i32 = arith.constant 2147483647 : i32
      %cm2147483648_i32 = arith.constant -2147483648 : i32
      scf.for %i0 = %c0 to %c256 step %c1 {
        %v0 = memref.load %in_x[%i0] : memref<256xf32>
        %v1 = arith.cmpf oge, %v0, %cst4_f32 : f32
        %v2 = arith.cmpf olt, %v0, %cst3_f32 : f32
        %v3 = arith.andi %v1, %v2 : i1
        %v4 = arith.select %v3, %v0, %cst5_f32 : f32
        %v5 = arith.fptosi %v4 : f32 to i32
        %v6 = arith.cmpf oge, %v0, %cst3_f32 : f32
        %v7 = arith.select %v6, %c2147483647_i32, %v5 : i32
        %v8 = arith.cmpf olt, %v0, %cst4_f32 : f32
        %v9 = arith.select %v8, %cm2147483648_i32, %v7 : i32
        memref.store %v9, %out_y[%i0] : memref<256xi32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<256xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi32>> -> memref<256xi32>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi32>) -> ()
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
        %s0_sv = aie.objectfifo.acquire @x_c1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1(Produce, 1) : !aie.objectfifosubview<memref<256xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi32>> -> memref<256xi32>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi32>) -> ()
        aie.objectfifo.release @x_c1(Consume, 1)
        aie.objectfifo.release @y_c1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2(Produce, 1) : !aie.objectfifosubview<memref<256xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi32>> -> memref<256xi32>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi32>) -> ()
        aie.objectfifo.release @x_c2(Consume, 1)
        aie.objectfifo.release @y_c2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3(Produce, 1) : !aie.objectfifosubview<memref<256xi32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi32>> -> memref<256xi32>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi32>) -> ()
        aie.objectfifo.release @x_c3(Consume, 1)
        aie.objectfifo.release @y_c3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<1024xf32>, %y: memref<1024xi32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 256][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 256][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 256][1, 1, 1, 256][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<1024xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 512][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 256][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<1024xi32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 768][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 768][1, 1, 1, 256][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<1024xi32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
