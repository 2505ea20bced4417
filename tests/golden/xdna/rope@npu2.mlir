// npubuild xdna kernel rope_f32_16x128_16x16_16x16_head_dim-32
// op: rope, dtype: f32, attrs: {"head_dim":32,"n_rot":0,"style":"neox"}
// inputs: x: 16x128 f32, cos: 16x16 f32, sin: 16x16 f32; output: y: 16x128 f32
// device npu2, partition npu2: last_axis split, 16 rows in chunks of 2, 8 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 2048 x f32); 4: cos_sin (cos 256 | sin 256 x f32); 5: y (y 2048 x f32)
module {
  aie.device(npu2) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %shim_2_0 = aie.tile(2, 0)
    %shim_3_0 = aie.tile(3, 0)
    %shim_4_0 = aie.tile(4, 0)
    %shim_5_0 = aie.tile(5, 0)
    %shim_6_0 = aie.tile(6, 0)
    %shim_7_0 = aie.tile(7, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %mem_2_1 = aie.tile(2, 1)
    %mem_3_1 = aie.tile(3, 1)
    %mem_4_1 = aie.tile(4, 1)
    %mem_5_1 = aie.tile(5, 1)
    %mem_6_1 = aie.tile(6, 1)
    %mem_7_1 = aie.tile(7, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    %core_2_2 = aie.tile(2, 2)
    %core_3_2 = aie.tile(3, 2)
    %core_4_2 = aie.tile(4, 2)
    %core_5_2 = aie.tile(5, 2)
    %core_6_2 = aie.tile(6, 2)
    %core_7_2 = aie.tile(7, 2)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c1(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c2(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c2(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c2(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c3(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c3(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c3(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c4(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c4(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c4(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c5(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c5(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c5(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c6(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c6(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c6(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @x_c7(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @cos_sin_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @cos_sin_c7(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<64xf32>>
    aie.objectfifo @y_c7(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<2x128xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0] ([] [])
    aie.objectfifo.link [@cos_sin_c0_shim] -> [@cos_sin_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1] ([] [])
    aie.objectfifo.link [@cos_sin_c1_shim] -> [@cos_sin_c1] ([] [])
    aie.objectfifo.link [@y_c1] -> [@y_c1_shim] ([] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2] ([] [])
    aie.objectfifo.link [@cos_sin_c2_shim] -> [@cos_sin_c2] ([] [])
    aie.objectfifo.link [@y_c2] -> [@y_c2_shim] ([] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3] ([] [])
    aie.objectfifo.link [@cos_sin_c3_shim] -> [@cos_sin_c3] ([] [])
    aie.objectfifo.link [@y_c3] -> [@y_c3_shim] ([] [])
    aie.objectfifo.link [@x_c4_shim] -> [@x_c4] ([] [])
    aie.objectfifo.link [@cos_sin_c4_shim] -> [@cos_sin_c4] ([] [])
    aie.objectfifo.link [@y_c4] -> [@y_c4_shim] ([] [])
    aie.objectfifo.link [@x_c5_shim] -> [@x_c5] ([] [])
    aie.objectfifo.link [@cos_sin_c5_shim] -> [@cos_sin_c5] ([] [])
    aie.objectfifo.link [@y_c5] -> [@y_c5_shim] ([] [])
    aie.objectfifo.link [@x_c6_shim] -> [@x_c6] ([] [])
    aie.objectfifo.link [@cos_sin_c6_shim] -> [@cos_sin_c6] ([] [])
    aie.objectfifo.link [@y_c6] -> [@y_c6_shim] ([] [])
    aie.objectfifo.link [@x_c7_shim] -> [@x_c7] ([] [])
    aie.objectfifo.link [@cos_sin_c7_shim] -> [@cos_sin_c7] ([] [])
    aie.objectfifo.link [@y_c7] -> [@y_c7_shim] ([] [])
    %cos_c0_local = aie.buffer(%core_0_2) {sym_name = "cos_c0_local"} : memref<2x16xf32>
    %sin_c0_local = aie.buffer(%core_0_2) {sym_name = "sin_c0_local"} : memref<2x16xf32>
    %cos_c1_local = aie.buffer(%core_1_2) {sym_name = "cos_c1_local"} : memref<2x16xf32>
    %sin_c1_local = aie.buffer(%core_1_2) {sym_name = "sin_c1_local"} : memref<2x16xf32>
    %cos_c2_local = aie.buffer(%core_2_2) {sym_name = "cos_c2_local"} : memref<2x16xf32>
    %sin_c2_local = aie.buffer(%core_2_2) {sym_name = "sin_c2_local"} : memref<2x16xf32>
    %cos_c3_local = aie.buffer(%core_3_2) {sym_name = "cos_c3_local"} : memref<2x16xf32>
    %sin_c3_local = aie.buffer(%core_3_2) {sym_name = "sin_c3_local"} : memref<2x16xf32>
    %cos_c4_local = aie.buffer(%core_4_2) {sym_name = "cos_c4_local"} : memref<2x16xf32>
    %sin_c4_local = aie.buffer(%core_4_2) {sym_name = "sin_c4_local"} : memref<2x16xf32>
    %cos_c5_local = aie.buffer(%core_5_2) {sym_name = "cos_c5_local"} : memref<2x16xf32>
    %sin_c5_local = aie.buffer(%core_5_2) {sym_name = "sin_c5_local"} : memref<2x16xf32>
    %cos_c6_local = aie.buffer(%core_6_2) {sym_name = "cos_c6_local"} : memref<2x16xf32>
    %sin_c6_local = aie.buffer(%core_6_2) {sym_name = "sin_c6_local"} : memref<2x16xf32>
    %cos_c7_local = aie.buffer(%core_7_2) {sym_name = "cos_c7_local"} : memref<2x16xf32>
    %sin_c7_local = aie.buffer(%core_7_2) {sym_name = "sin_c7_local"} : memref<2x16xf32>
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
        %s0_sv = aie.objectfifo.acquire @x_c0(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c0(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c0_local, %sin_c0_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c0(Consume, 1)
        aie.objectfifo.release @cos_sin_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
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
        %s0_sv = aie.objectfifo.acquire @x_c1(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c1(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c1_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c1_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c1(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c1_local, %sin_c1_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c1(Consume, 1)
        aie.objectfifo.release @cos_sin_c1(Consume, 1)
        aie.objectfifo.release @y_c1(Produce, 1)
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
        %s0_sv = aie.objectfifo.acquire @x_c2(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c2(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c2_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c2_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c2(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c2_local, %sin_c2_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c2(Consume, 1)
        aie.objectfifo.release @cos_sin_c2(Consume, 1)
        aie.objectfifo.release @y_c2(Produce, 1)
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
        %s0_sv = aie.objectfifo.acquire @x_c3(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c3(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c3_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c3_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c3(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c3_local, %sin_c3_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c3(Consume, 1)
        aie.objectfifo.release @cos_sin_c3(Consume, 1)
        aie.objectfifo.release @y_c3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c4(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c4(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c4_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c4_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c4(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c4_local, %sin_c4_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c4(Consume, 1)
        aie.objectfifo.release @cos_sin_c4(Consume, 1)
        aie.objectfifo.release @y_c4(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c5(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c5(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c5_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c5_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c5(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c5_local, %sin_c5_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c5(Consume, 1)
        aie.objectfifo.release @cos_sin_c5(Consume, 1)
        aie.objectfifo.release @y_c5(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c6(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c6(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c6_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c6_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c6(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c6_local, %sin_c6_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c6(Consume, 1)
        aie.objectfifo.release @cos_sin_c6(Consume, 1)
        aie.objectfifo.release @y_c6(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c7(Consume, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        %s1_sv = aie.objectfifo.acquire @cos_sin_c7(Consume, 1) : !aie.objectfifosubview<memref<64xf32>>
        %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<64xf32>> -> memref<64xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c2 step %c1 {
          scf.for %u1_i1 = %c0 to %c16 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c16 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %s1[%u1_a1], %u1_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %cos_c7_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c2 step %c1 {
          scf.for %u2_i1 = %c0 to %c16 step %c16 {
            %u2_a0 = arith.addi %c32, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c16 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %s1[%u2_a1], %u2_pad {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %sin_c7_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<2x16xf32>
          }
        }
        %o_sv = aie.objectfifo.acquire @y_c7(Produce, 1) : !aie.objectfifosubview<memref<2x128xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<2x128xf32>> -> memref<2x128xf32>
        func.call @body(%s0, %cos_c7_local, %sin_c7_local, %o) : (memref<2x128xf32>, memref<2x16xf32>, memref<2x16xf32>, memref<2x128xf32>) -> ()
        aie.objectfifo.release @x_c7(Consume, 1)
        aie.objectfifo.release @cos_sin_c7(Consume, 1)
        aie.objectfifo.release @y_c7(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<2048xf32>, %cos_sin: memref<512xf32>, %y: memref<2048xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 0][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c0_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 256][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 32][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c1_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 256][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 512][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 64][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c2_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 768][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 96][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c3_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 768][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c3_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1024][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c4_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 128][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c4_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1024][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c4_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1280][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c5_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 160][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c5_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1280][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c5_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1536][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c6_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 192][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c6_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1536][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c6_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 1792][1, 1, 1, 256][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c7_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%cos_sin[0, 0, 0, 224][1, 1, 2, 32][0, 32, 256, 1]) {id = 1 : i64, metadata = @cos_sin_c7_shim} : memref<512xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 1792][1, 1, 1, 256][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c7_shim} : memref<2048xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
      aiex.npu.dma_wait {symbol = @y_c4_shim}
      aiex.npu.dma_wait {symbol = @y_c5_shim}
      aiex.npu.dma_wait {symbol = @y_c6_shim}
      aiex.npu.dma_wait {symbol = @y_c7_shim}
    }
  }
}
