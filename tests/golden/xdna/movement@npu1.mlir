// npubuild xdna kernel pad_f32_16x60_pads-0.0.2.2
// op: pad, dtype: f32, attrs: {"mode":"constant","pads":[[0,0],[2,2]],"value":0.0}
// inputs: x: 16x60 f32; output: y: 16x64 f32
// device npu1, partition npu1_1col: outer split, 16 rows in chunks of 16, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 960 x f32); 4: y (y 1024 x f32)
module {
  aie.device(npu1_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x60xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<16x60xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<16x60xf32>, %out_y: memref<16x64xf32>) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c2 = arith.constant 2 : index
      %c60 = arith.constant 60 : index
      %cst6_f32 = arith.constant 0.0 : f32
      scf.for %i0 = %c0 to %c16 step %c1 {
        scf.for %i1 = %c0 to %c64 step %c1 {
          %v0 = arith.subi %i1, %c2 : index
          %v1 = arith.cmpi ult, %v0, %c60 : index
          %v2 = arith.select %v1, %v0, %c0 : index
          %v3 = memref.load %in_x[%i0, %v2] : memref<16x60xf32>
          %v4 = arith.select %v1, %v3, %cst6_f32 : f32
          memref.store %v4, %out_y[%i0, %i1] : memref<16x64xf32>
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<16x60xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<16x60xf32>> -> memref<16x60xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<16x64xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<16x64xf32>> -> memref<16x64xf32>
        func.call @body(%s0, %o) : (memref<16x60xf32>, memref<16x64xf32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<960xf32>, %y: memref<1024xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 960][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<960xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
