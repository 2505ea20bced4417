// npubuild xdna kernel lt_f32_1024_1024
// op: lt, dtype: f32, attrs: {}
// inputs: a: 1024 f32, b: 1024 f32; output: y: 1024 bool
// device npu2, partition npu2: flat split, 1024 rows in chunks of 128, 8 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: a_b (a 1024 | b 1024 x f32); 4: y (y 1024 x bool)
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
    aie.objectfifo @a_b_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c1(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c2(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c2(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c3(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c3(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c4_shim(%shim_4_0, {%mem_4_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c4(%mem_4_1, {%core_4_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c4(%core_4_2, {%mem_4_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c4_shim(%mem_4_1, {%shim_4_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c5_shim(%shim_5_0, {%mem_5_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c5(%mem_5_1, {%core_5_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c5(%core_5_2, {%mem_5_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c5_shim(%mem_5_1, {%shim_5_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c6_shim(%shim_6_0, {%mem_6_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c6(%mem_6_1, {%core_6_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c6(%core_6_2, {%mem_6_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c6_shim(%mem_6_1, {%shim_6_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @a_b_c7_shim(%shim_7_0, {%mem_7_1}, 1 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @a_b_c7(%mem_7_1, {%core_7_2}, 2 : i32) : !aie.objectfifo<memref<256xf32>>
    aie.objectfifo @y_c7(%core_7_2, {%mem_7_1}, 2 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo @y_c7_shim(%mem_7_1, {%shim_7_0}, 1 : i32) : !aie.objectfifo<memref<128xi8>>
    aie.objectfifo.link [@a_b_c0_shim] -> [@a_b_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    aie.objectfifo.link [@a_b_c1_shim] -> [@a_b_c1] ([] [])
    aie.objectfifo.link [@y_c1] -> [@y_c1_shim] ([] [])
    aie.objectfifo.link [@a_b_c2_shim] -> [@a_b_c2] ([] [])
    aie.objectfifo.link [@y_c2] -> [@y_c2_shim] ([] [])
    aie.objectfifo.link [@a_b_c3_shim] -> [@a_b_c3] ([] [])
    aie.objectfifo.link [@y_c3] -> [@y_c3_shim] ([] [])
    aie.objectfifo.link [@a_b_c4_shim] -> [@a_b_c4] ([] [])
    aie.objectfifo.link [@y_c4] -> [@y_c4_shim] ([] [])
    aie.objectfifo.link [@a_b_c5_shim] -> [@a_b_c5] ([] [])
    aie.objectfifo.link [@y_c5] -> [@y_c5_shim] ([] [])
    aie.objectfifo.link [@a_b_c6_shim] -> [@a_b_c6] ([] [])
    aie.objectfifo.link [@y_c6] -> [@y_c6_shim] ([] [])
    aie.objectfifo.link [@a_b_c7_shim] -> [@a_b_c7] ([] [])
    aie.objectfifo.link [@y_c7] -> [@y_c7_shim] ([] [])
    %a_c0_local = aie.buffer(%core_0_2) {sym_name = "a_c0_local"} : memref<128xf32>
    %b_c0_local = aie.buffer(%core_0_2) {sym_name = "b_c0_local"} : memref<128xf32>
    %a_c1_local = aie.buffer(%core_1_2) {sym_name = "a_c1_local"} : memref<128xf32>
    %b_c1_local = aie.buffer(%core_1_2) {sym_name = "b_c1_local"} : memref<128xf32>
    %a_c2_local = aie.buffer(%core_2_2) {sym_name = "a_c2_local"} : memref<128xf32>
    %b_c2_local = aie.buffer(%core_2_2) {sym_name = "b_c2_local"} : memref<128xf32>
    %a_c3_local = aie.buffer(%core_3_2) {sym_name = "a_c3_local"} : memref<128xf32>
    %b_c3_local = aie.buffer(%core_3_2) {sym_name = "b_c3_local"} : memref<128xf32>
    %a_c4_local = aie.buffer(%core_4_2) {sym_name = "a_c4_local"} : memref<128xf32>
    %b_c4_local = aie.buffer(%core_4_2) {sym_name = "b_c4_local"} : memref<128xf32>
    %a_c5_local = aie.buffer(%core_5_2) {sym_name = "a_c5_local"} : memref<128xf32>
    %b_c5_local = aie.buffer(%core_5_2) {sym_name = "b_c5_local"} : memref<128xf32>
    %a_c6_local = aie.buffer(%core_6_2) {sym_name = "a_c6_local"} : memref<128xf32>
    %b_c6_local = aie.buffer(%core_6_2) {sym_name = "b_c6_local"} : memref<128xf32>
    %a_c7_local = aie.buffer(%core_7_2) {sym_name = "a_c7_local"} : memref<128xf32>
    %b_c7_local = aie.buffer(%core_7_2) {sym_name = "b_c7_local"} : memref<128xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_a: memref<128xf32>, %in_b: memref<128xf32>, %out_y: memref<128xi8>) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c1 = arith.constant 1 : index
      scf.for %i0 = %c0 to %c128 step %c1 {
        %v0 = memref.load %in_a[%i0] : memref<128xf32>
        %v1 = memref.load %in_b[%i0] : memref<128xf32>
        %v2 = arith.cmpf olt, %v0, %v1 : f32
        %v3 = arith.extui %v2 : i1 to i8
        memref.store %v3, %out_y[%i0] : memref<128xi8>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c0_local, %b_c0_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c1_local, %b_c1_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c1(Consume, 1)
        aie.objectfifo.release @y_c1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c2(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c2_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c2_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c2(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c2_local, %b_c2_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c2(Consume, 1)
        aie.objectfifo.release @y_c2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c3(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c3_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c3_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c3(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c3_local, %b_c3_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c3(Consume, 1)
        aie.objectfifo.release @y_c3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_4_2 = aie.core(%core_4_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c4(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c4_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c4_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c4(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c4_local, %b_c4_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c4(Consume, 1)
        aie.objectfifo.release @y_c4(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_5_2 = aie.core(%core_5_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c5(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c5_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c5_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c5(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c5_local, %b_c5_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c5(Consume, 1)
        aie.objectfifo.release @y_c5(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_6_2 = aie.core(%core_6_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c6(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c6_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c6_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c6(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c6_local, %b_c6_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c6(Consume, 1)
        aie.objectfifo.release @y_c6(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_7_2 = aie.core(%core_7_2) {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c7(Consume, 1) : !aie.objectfifosubview<memref<256xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<256xf32>> -> memref<256xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c128 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c7_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c128 step %c16 {
          %u1_a0 = arith.addi %c128, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<256xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c7_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<128xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c7(Produce, 1) : !aie.objectfifosubview<memref<128xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<128xi8>> -> memref<128xi8>
        func.call @body(%a_c7_local, %b_c7_local, %o) : (memref<128xf32>, memref<128xf32>, memref<128xi8>) -> ()
        aie.objectfifo.release @a_b_c7(Consume, 1)
        aie.objectfifo.release @y_c7(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%a_b: memref<2048xf32>, %y: memref<1024xi8>) {
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 0][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 128][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 128][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 256][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c2_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 256][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 384][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c3_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 384][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 512][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c4_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c4_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 640][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c5_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 640][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c5_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 768][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c6_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 768][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c6_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 896][1, 1, 2, 128][0, 128, 1024, 1]) {id = 0 : i64, metadata = @a_b_c7_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 896][1, 1, 1, 128][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c7_shim} : memref<1024xi8>
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
