// npubuild xdna kernel quantize_i8_32x64_scales-0.02
// op: quantize, dtype: i8, attrs: {"axis":1,"scales":[0.02],"zero_points":[]}
// inputs: x: 32x64 f32; output: y: 32x64 i8
// device npu1, partition npu1: flat split, 2048 rows in chunks of 256, 4 column(s) x 2 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 2048 x f32); 4: y (y 2048 x i8)
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
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<256xi8>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1] ([] [0, 256])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_shim] ([0, 256] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<256xf32>, %out_y: memref<256xi8>) {
      %cst0_f32 = arith.constant 0.019999999552965164 : f32
      %c0_i32 = arith.constant 0 : i32
      %cst2_f32 = arith.constant 12582912.0 : f32
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %cst6_f32 = arith.constant 0.0 : f32
      %cst7_f32 = arith.constant -1024.0 : f32
      %cst8_f32 = arith.constant 1024.0 : f32
      %cm128_i32 = arith.constant -128 : i32
      %c127_i32 = arith.constant 127 : i32
      scf.for %i0 = %c0 to %c256 step %c1 {
        %v0 = memref.load %in_x[%i0] : memref<256xf32>
        %v1 = arith.divf %v0, %cst0_f32 : f32
        %v2 = arith.cmpf uno, %v1, %v1 : f32
        %v3 = arith.select %v2, %cst6_f32, %v1 : f32
        %v4 = arith.cmpf olt, %v3, %cst7_f32 : f32
        %v5 = arith.select %v4, %cst7_f32, %v3 : f32
        %v6 = arith.cmpf ogt, %v5, %cst8_f32 : f32
        %v7 = arith.select %v6, %cst8_f32, %v5 : f32
        %v8 = arith.addf %v7, %cst2_f32 : f32
        %v9 = arith.subf %v8, %cst2_f32 : f32
        %v10 = arith.fptosi %v9 : f32 to i32
        %v11 = arith.addi %v10, %c0_i32 : i32
        %v12 = arith.maxsi %v11, %cm128_i32 : i32
        %v13 = arith.minsi %v12, %c127_i32 : i32
        %v14 = arith.trunci %v13 : i32 to i8
        memref.store %v14, %out_y[%i0] : memref<256xi8>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<256xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<256xi8>> -> memref<256xi8>
        func.call @body(%s0, %o) : (memref<256xf32>, memref<256xi8>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<2048xf32>, %y: memref<2048xi8>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<2048xi8>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<2048xi8>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<2048xi8>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<2048xi8>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
