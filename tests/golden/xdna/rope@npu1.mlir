// npubuild xdna kernel rope_f32_16x128_16x16_16x16_head_dim-32
// op: rope, dtype: f32, attrs: {"head_dim":32,"n_rot":0,"style":"neox"}
// inputs: x: 16x128 f32, cos: 16x16 f32, sin: 16x16 f32; output: y: 16x128 f32
// device npu1, partition npu1: last_axis split, 16 rows in chunks of 2, 4 column(s) x 2 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 2048 x f32); 4: cos_sin (cos 256 | sin 256 x f32); 5: y (y 2048 x f32)
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
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @cos_sin_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @cos_sin_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @cos_sin_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<128xf32>>
    aie.objectfifo @cos_sin_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1] ([] [0, 256])
    aie.objectfifo.link [@cos_sin_c0_shim] -> [@cos_sin_c0_r0, @cos_sin_c0_r1] ([] [0, 64])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1] ([] [0, 256])
    aie.objectfifo.link [@cos_sin_c1_shim] -> [@cos_sin_c1_r0, @cos_sin_c1_r1] ([] [0, 64])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1] ([] [0, 256])
    aie.objectfifo.link [@cos_sin_c2_shim] -> [@cos_sin_c2_r0, @cos_sin_c2_r1] ([] [0, 64])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_shim] ([0, 256] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1] ([] [0, 256])
    aie.objectfifo.link [@cos_sin_c3_shim] -> [@cos_sin_c3_r0, @cos_sin_c3_r1] ([] [0, 64])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_shim] ([0, 256] [])
    %cos_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "cos_c0_r0_local"} : memref<2x16xf32>
    %sin_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "sin_c0_r0_local"} : memref<2x16xf32>
    %cos_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "cos_c0_r1_local"} : memref<2x16xf32>
    %sin_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "sin_c0_r1_local"} : memref<2x16xf32>
    %cos_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "cos_c1_r0_local"} : memref<2x16xf32>
    %sin_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "sin_c1_r0_local"} : memref<2x16xf32>
    %cos_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "cos_c1_r1_local"} : memref<2x16xf32>
    %sin_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "sin_c1_r1_local"} : memref<2x16xf32>
    %cos_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "cos_c2_r0_local"} : memref<2x16xf32>
    %sin_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "sin_c2_r0_local"} : memref<2x16xf32>
    %cos_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "cos_c2_r1_local"} : memref<2x16xf32>
    %sin_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "sin_c2_r1_local"} : memref<2x16xf32>
    %cos_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "cos_c3_r0_local"} : memref<2x16xf32>
    %sin_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "sin_c3_r0_local"} : memref<2x16xf32>
    %cos_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "cos_c3_r1_local"} : memref<2x16xf32>
    %sin_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "sin_c3_r1_local"} : memref<2x16xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<2x128xf32>, %in_cos: memref<2x16xf32>, %in_sin: memref<2x16xf32>, %out_y: memref<2x128xf32>) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c16 = arith.constant 16 : index
      scf.for %i0 = %c0 to %c2 step %c1 {
        scf.for %i1 = %c0 to %c4 step %c1 {
          %v0 = arith.muli %i1, %c32 : index
          scf.for %i2 = %c0 to %c16 step %c1 {
            %v1 = memref.load %in_cos[%i0, %i2] : memref<2x16xf32>
            %v2 = memref.load %in_sin[%i0, %i2] : memref<2x16xf32>
            %v3 = arith.addi %v0, %i2 : index
            %v4 = arith.addi %v3, %c16 : index
            %v5 = memref.load %in_x[%i0, %v3] : memref<2x128xf32>
            %v6 = memref.load %in_x[%i0, %v4] : memref<2x128xf32>
            %v7 = arith.mulf %v5, %v1 : f32
            %v8 = arith.mulf %v6, %v2 : f32
            %v9 = arith.subf %v7, %v8 : f32
            %v10 = arith.mulf %v6, %v1 : f32
            %v11 = arith.mulf %v5, %v2 : f32
            %v12 = arith.addf %v10, %v11 : f32
            memref.store %v9, %out_y[%i0, %v3] : memref<2x128xf32>
            memref.store %v12, %out_y[%i0, %v4] : memref<2x128xf32>
          }
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c0_r0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c0_r0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c0_r0_local, %sin_c0_r0_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c0_r0(Consume, 1)
        aie.objectfifo.release @cos_sin_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c0_r1_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c0_r1_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c0_r1_local, %sin_c0_r1_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @cos_sin_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c1_r0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c1_r0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c1_r0_local, %sin_c1_r0_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c1_r0(Consume, 1)
        aie.objectfifo.release @cos_sin_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c1_r1_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c1_r1_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c1_r1_local, %sin_c1_r1_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @cos_sin_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c2_r0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c2_r0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c2_r0_local, %sin_c2_r0_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c2_r0(Consume, 1)
        aie.objectfifo.release @cos_sin_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c2_r1_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c2_r1_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c2_r1_local, %sin_c2_r1_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @cos_sin_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c3_r0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c3_r0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c3_r0_local, %sin_c3_r0_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c3_r0(Consume, 1)
        aie.objectfifo.release @cos_sin_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c3_r1_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c3_r1_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c3_r1_local, %sin_c3_r1_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @cos_sin_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<2048xf32>, %cos_sin: memref<512xf32>, %y: memref<2048xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 0][1, 2, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c0_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 64][1, 2, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c1_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 128][1, 2, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c2_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 192][1, 2, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c3_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 512][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c3_shim} : memref<2048xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
