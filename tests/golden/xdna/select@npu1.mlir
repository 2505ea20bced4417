// npubuild xdna kernel where_f32_8192_8192_8192
// op: where, dtype: f32, attrs: {}
// inputs: cond: 8192 bool, a: 8192 f32, b: 8192 f32; output: y: 8192 f32
// device npu1, partition npu1: flat split, 8192 rows in chunks of 512, 4 column(s) x 2 core rows, 2 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: cond (cond 8192 x bool); 4: a_b (a 8192 | b 8192 x f32); 5: y (y 8192 x f32)
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
    aie.objectfifo @cond_c0_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo @cond_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @cond_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @a_b_c0_shim(%shim_0_0, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @a_b_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @cond_c1_shim(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo @cond_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @cond_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @a_b_c1_shim(%shim_1_0, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @a_b_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @cond_c2_shim(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo @cond_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @cond_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @a_b_c2_shim(%shim_2_0, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @a_b_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @cond_c3_shim(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<1024xi8>>
    aie.objectfifo @cond_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @cond_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @a_b_c3_shim(%shim_3_0, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @a_b_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo.link [@cond_c0_shim] -> [@cond_c0_r0, @cond_c0_r1] ([] [0, 512])
    aie.objectfifo.link [@a_b_c0_shim] -> [@a_b_c0_r0, @a_b_c0_r1] ([] [0, 1024])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1] -> [@y_c0_shim] ([0, 512] [])
    aie.objectfifo.link [@cond_c1_shim] -> [@cond_c1_r0, @cond_c1_r1] ([] [0, 512])
    aie.objectfifo.link [@a_b_c1_shim] -> [@a_b_c1_r0, @a_b_c1_r1] ([] [0, 1024])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1] -> [@y_c1_shim] ([0, 512] [])
    aie.objectfifo.link [@cond_c2_shim] -> [@cond_c2_r0, @cond_c2_r1] ([] [0, 512])
    aie.objectfifo.link [@a_b_c2_shim] -> [@a_b_c2_r0, @a_b_c2_r1] ([] [0, 1024])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1] -> [@y_c2_shim] ([0, 512] [])
    aie.objectfifo.link [@cond_c3_shim] -> [@cond_c3_r0, @cond_c3_r1] ([] [0, 512])
    aie.objectfifo.link [@a_b_c3_shim] -> [@a_b_c3_r0, @a_b_c3_r1] ([] [0, 1024])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1] -> [@y_c3_shim] ([0, 512] [])
    %a_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "a_c0_r0_local"} : memref<512xf32>
    %b_c0_r0_local = aie.buffer(%core_0_2) {sym_name = "b_c0_r0_local"} : memref<512xf32>
    %a_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "a_c0_r1_local"} : memref<512xf32>
    %b_c0_r1_local = aie.buffer(%core_0_3) {sym_name = "b_c0_r1_local"} : memref<512xf32>
    %a_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "a_c1_r0_local"} : memref<512xf32>
    %b_c1_r0_local = aie.buffer(%core_1_2) {sym_name = "b_c1_r0_local"} : memref<512xf32>
    %a_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "a_c1_r1_local"} : memref<512xf32>
    %b_c1_r1_local = aie.buffer(%core_1_3) {sym_name = "b_c1_r1_local"} : memref<512xf32>
    %a_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "a_c2_r0_local"} : memref<512xf32>
    %b_c2_r0_local = aie.buffer(%core_2_2) {sym_name = "b_c2_r0_local"} : memref<512xf32>
    %a_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "a_c2_r1_local"} : memref<512xf32>
    %b_c2_r1_local = aie.buffer(%core_2_3) {sym_name = "b_c2_r1_local"} : memref<512xf32>
    %a_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "a_c3_r0_local"} : memref<512xf32>
    %b_c3_r0_local = aie.buffer(%core_3_2) {sym_name = "b_c3_r0_local"} : memref<512xf32>
    %a_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "a_c3_r1_local"} : memref<512xf32>
    %b_c3_r1_local = aie.buffer(%core_3_3) {sym_name = "b_c3_r1_local"} : memref<512xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_cond: memref<512xi8>, %in_a: memref<512xf32>, %in_b: memref<512xf32>, %out_y: memref<512xf32>) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c1 = arith.constant 1 : index
      %c0_i8 = arith.constant 0 : i8
      scf.for %i0 = %c0 to %c512 step %c1 {
        %v0 = memref.load %in_cond[%i0] : memref<512xi8>
        %v1 = arith.cmpi ne, %v0, %c0_i8 : i8
        %v2 = memref.load %in_a[%i0] : memref<512xf32>
        %v3 = memref.load %in_b[%i0] : memref<512xf32>
        %v4 = arith.select %v1, %v2, %v3 : f32
        memref.store %v4, %out_y[%i0] : memref<512xf32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c0_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c0_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c0_r0_local, %b_c0_r0_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c0_r0(Consume, 1)
          aie.objectfifo.release @a_b_c0_r0(Consume, 1)
          aie.objectfifo.release @y_c0_r0(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c0_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c0_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c0_r1_local, %b_c0_r1_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c0_r1(Consume, 1)
          aie.objectfifo.release @a_b_c0_r1(Consume, 1)
          aie.objectfifo.release @y_c0_r1(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c1_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c1_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c1_r0_local, %b_c1_r0_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c1_r0(Consume, 1)
          aie.objectfifo.release @a_b_c1_r0(Consume, 1)
          aie.objectfifo.release @y_c1_r0(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c1_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c1_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c1_r1_local, %b_c1_r1_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c1_r1(Consume, 1)
          aie.objectfifo.release @a_b_c1_r1(Consume, 1)
          aie.objectfifo.release @y_c1_r1(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c2_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c2_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c2_r0_local, %b_c2_r0_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c2_r0(Consume, 1)
          aie.objectfifo.release @a_b_c2_r0(Consume, 1)
          aie.objectfifo.release @y_c2_r0(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c2_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c2_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c2_r1_local, %b_c2_r1_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c2_r1(Consume, 1)
          aie.objectfifo.release @a_b_c2_r1(Consume, 1)
          aie.objectfifo.release @y_c2_r1(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c3_r0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c3_r0_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c3_r0_local, %b_c3_r0_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c3_r0(Consume, 1)
          aie.objectfifo.release @a_b_c3_r0(Consume, 1)
          aie.objectfifo.release @y_c3_r0(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        scf.for %chunk = %c0 to %c2 step %c1 {
          %s0_sv = aie.objectfifo.acquire @cond_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<512xi8>>
          %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
          %s1_sv = aie.objectfifo.acquire @a_b_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
          %s1 = aie.objectfifo.subview.access %s1_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
          %u1_pad = arith.constant 0.0 : f32
          scf.for %u1_i0 = %c0 to %c512 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i0 : index
            %u1_v = vector.transfer_read %s1[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %a_c3_r1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %u2_pad = arith.constant 0.0 : f32
          scf.for %u2_i0 = %c0 to %c512 step %c16 {
            %u2_a0 = arith.addi %c512, %u2_i0 : index
            %u2_v = vector.transfer_read %s1[%u2_a0], %u2_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %b_c3_r1_local[%u2_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
          }
          %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
          %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
          func.call @body(%s0, %a_c3_r1_local, %b_c3_r1_local, %o) : (memref<512xi8>, memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
          aie.objectfifo.release @cond_c3_r1(Consume, 1)
          aie.objectfifo.release @a_b_c3_r1(Consume, 1)
          aie.objectfifo.release @y_c3_r1(Produce, 1)
        }
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%cond: memref<8192xi8>, %a_b: memref<16384xf32>, %y: memref<8192xf32>) {
      aiex.npu.dma_memcpy_nd(%cond[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @cond_c0_shim} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 0][1, 4, 2, 512][0, 512, 8192, 1]) {id = 1 : i64, metadata = @a_b_c0_shim} : memref<16384xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%cond[0, 0, 0, 2048][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @cond_c1_shim} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 2048][1, 4, 2, 512][0, 512, 8192, 1]) {id = 1 : i64, metadata = @a_b_c1_shim} : memref<16384xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 2048][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%cond[0, 0, 0, 4096][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @cond_c2_shim} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 4096][1, 4, 2, 512][0, 512, 8192, 1]) {id = 1 : i64, metadata = @a_b_c2_shim} : memref<16384xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 4096][1, 1, 1, 2048][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%cond[0, 0, 0, 6144][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @cond_c3_shim} : memref<8192xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 6144][1, 4, 2, 512][0, 512, 8192, 1]) {id = 1 : i64, metadata = @a_b_c3_shim} : memref<16384xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 6144][1, 1, 1, 2048][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c3_shim} : memref<8192xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
