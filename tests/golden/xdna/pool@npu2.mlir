// npubuild xdna kernel pool_f32_1x2x8x8_mode-max_kernel_size-2.2
// op: pool, dtype: f32, attrs: {"count_include_pad":false,"kernel_size":[2,2],"mode":"max","pads":[0,0],"strides":[1,1]}
// inputs: x: 1x2x8x8 f32; output: y: 1x2x7x7 f32
// device npu2, partition npu2_1col: whole split, 1 rows in chunks of 1, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 128 x f32); 4: y (y 98 x f32)
module {
  aie.device(npu2_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1x2x8x8xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<1x2x8x8xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1x2x7x7xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<1x2x7x7xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<1x2x8x8xf32>, %out_y: memref<1x2x7x7xf32>) {
      %cst0_f32 = arith.constant 0xFF800000 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c7 = arith.constant 7 : index
      scf.for %i0 = %c0 to %c1 step %c1 {
        scf.for %i1 = %c0 to %c2 step %c1 {
          scf.for %i2 = %c0 to %c7 step %c1 {
            scf.for %i3 = %c0 to %c7 step %c1 {
              %v0 = arith.addi %i2, %c2 : index
              %v1 = arith.addi %i3, %c2 : index
              %v4 = scf.for %v2 = %i2 to %v0 step %c1 iter_args(%v3 = %cst0_f32) -> (f32) {
                %v7 = scf.for %v5 = %i3 to %v1 step %c1 iter_args(%v6 = %v3) -> (f32) {
                  %v8 = memref.load %in_x[%i0, %i1, %v2, %v5] : memref<1x2x8x8xf32>
                  %v9 = arith.maximumf %v6, %v8 : f32
                  scf.yield %v9 : f32
                }
                scf.yield %v7 : f32
              }
              memref.store %v4, %out_y[%i0, %i1, %i2, %i3] : memref<1x2x7x7xf32>
            }
          }
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<1x2x8x8xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x2x8x8xf32>> -> memref<1x2x8x8xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<1x2x7x7xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<1x2x7x7xf32>> -> memref<1x2x7x7xf32>
        func.call @body(%s0, %o) : (memref<1x2x8x8xf32>, memref<1x2x7x7xf32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<128xf32>, %y: memref<98xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 128][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<128xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 98][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<98xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
