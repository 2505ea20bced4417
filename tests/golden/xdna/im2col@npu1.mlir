// npubuild xdna kernel im2col_f32_1x2x6x6_kernel_size-3.3
// op: im2col, dtype: f32, attrs: {"dilations":[1,1],"kernel_size":[3,3],"pads":[0,0],"strides":[1,1]}
// inputs: x: 1x2x6x6 f32; output: y: 16x18 f32
// device npu1, partition npu1_1col: whole split, 1 rows in chunks of 1, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 72 x f32); 4: y (y 288 x f32)
module {
  aie.device(npu1_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1x2x6x6xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<1x2x6x6xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x18xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<16x18xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<1x2x6x6xf32>, %out_y: memref<16x18xf32>) {
      %cst0_f32 = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      scf.for %i0 = %c0 to %c1 step %c1 {
        scf.for %i1 = %c0 to %c4 step %c1 {
          scf.for %i2 = %c0 to %c4 step %c1 {
            scf.for %i3 = %c0 to %c2 step %c1 {
              scf.for %i4 = %c0 to %c3 step %c1 {
                scf.for %i5 = %c0 to %c3 step %c1 {
                  %v0 = arith.muli %i0, %c4 : index
                  %v1 = arith.addi %v0, %i1 : index
                  %v2 = arith.muli %v1, %c4 : index
                  %v3 = arith.addi %v2, %i2 : index
                  %v4 = arith.muli %i3, %c3 : index
                  %v5 = arith.addi %v4, %i4 : index
                  %v6 = arith.muli %v5, %c3 : index
                  %v7 = arith.addi %v6, %i5 : index
                  %v8 = arith.addi %i1, %i4 : index
                  %v9 = arith.addi %i2, %i5 : index
                  %v10 = memref.load %in_x[%i0, %i3, %v8, %v9] : memref<1x2x6x6xf32>
                  memref.store %v10, %out_y[%v3, %v7] : memref<16x18xf32>
                }
              }
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
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<1x2x6x6xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1x2x6x6xf32>> -> memref<1x2x6x6xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<16x18xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<16x18xf32>> -> memref<16x18xf32>
        func.call @body(%s0, %o) : (memref<1x2x6x6xf32>, memref<16x18xf32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<72xf32>, %y: memref<288xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 72][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<72xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 288][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<288xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
