// npubuild xdna kernel rope_f32_16x128_16x16_16x16_head_dim-32
// op: rope, dtype: f32, attrs: {"head_dim":32,"n_rot":0,"style":"neox"}
// inputs: x: 16x128 f32, cos: 16x16 f32, sin: 16x16 f32; output: y: 16x128 f32
// device npu1, partition npu1_1col: last_axis split, 16 rows in chunks of 16, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 2048 x f32); 4: cos_sin (cos 256 | sin 256 x f32); 5: y (y 2048 x f32)
module {
  aie.device(npu1_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x128xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<16x128xf32>>
    aie.objectfifo @cos_sin_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @cos_sin_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x128xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<16x128xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@cos_sin_c0_shim] -> [@cos_sin_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    %cos_c0_local = aie.buffer(%core_0_2) {sym_name = "cos_c0_local"} : memref<16x16xf32>
    %sin_c0_local = aie.buffer(%core_0_2) {sym_name = "sin_c0_local"} : memref<16x16xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<16x128xf32>, %in_cos: memref<16x16xf32>, %in_sin: memref<16x16xf32>, %out_y: memref<16x128xf32>) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      scf.for %i0 = %c0 to %c16 step %c1 {
        scf.for %i1 = %c0 to %c4 step %c1 {
          %v0 = arith.muli %i1, %c32 : index
          scf.for %i2 = %c0 to %c16 step %c1 {
            %v1 = memref.load %in_cos[%i0, %i2] : memref<16x16xf32>
            %v2 = memref.load %in_sin[%i0, %i2] : memref<16x16xf32>
            %v3 = arith.addi %v0, %i2 : index
            %v4 = arith.addi %v3, %c16 : index
            %v5 = memref.load %in_x[%i0, %v3] : memref<16x128xf32>
            %v6 = memref.load %in_x[%i0, %v4] : memref<16x128xf32>
            %v7 = arith.mulf %v5, %v1 : f32
            %v8 = arith.mulf %v6, %v2 : f32
            %v9 = arith.subf %v7, %v8 : f32
            %v10 = arith.mulf %v6, %v1 : f32
            %v11 = arith.mulf %v5, %v2 : f32
            %v12 = arith.addf %v10, %v11 : f32
            memref.store %v9, %out_y[%i0, %v3] : memref<16x128xf32>
            memref.store %v12, %out_y[%i0, %v4] : memref<16x128xf32>
          }
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<16x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<16x128xf32>> -> memref<16x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c16 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c16 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c256, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<512xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<16x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<16x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<16x128xf32>> -> memref<16x128xf32>
        func.call @body(%s0, %cos_c0_local, %sin_c0_local, %o) : (memref<16x128xf32>, memref<16x16xf32>, memref<16x16xf32>, memref<16x128xf32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @cos_sin_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<2048xf32>, %cos_sin: memref<512xf32>, %y: memref<2048xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 0][1, 1, 2, 256][0, 256, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c0_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<2048xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
