// npubuild xdna kernel lt_f32_1024_1024
// op: lt, dtype: f32, attrs: {}
// inputs: a: 1024 f32, b: 1024 f32; output: y: 1024 bool
// device npu2, partition npu2_2col: flat split, 1024 rows in chunks of 512, 2 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: a_b (a 1024 | b 1024 x f32); 4: y (y 1024 x bool)
module {
  aie.device(npu2_2col) {
    %shim_0_0 = aie.tile(0, 0)
    %shim_1_0 = aie.tile(1, 0)
    %mem_0_1 = aie.tile(0, 1)
    %mem_1_1 = aie.tile(1, 1)
    %core_0_2 = aie.tile(0, 2)
    %core_1_2 = aie.tile(1, 2)
    aie.objectfifo @a_b_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @a_b_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @a_b_c1(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<1024xf32>>
    aie.objectfifo @y_c1(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<512xi8>>
    aie.objectfifo.link [@a_b_c0_shim] -> [@a_b_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    aie.objectfifo.link [@a_b_c1_shim] -> [@a_b_c1] ([] [])
    aie.objectfifo.link [@y_c1] -> [@y_c1_shim] ([] [])
    %a_c0_local = aie.buffer(%core_0_2) {sym_name = "a_c0_local"} : memref<512xf32>
    %b_c0_local = aie.buffer(%core_0_2) {sym_name = "b_c0_local"} : memref<512xf32>
    %a_c1_local = aie.buffer(%core_1_2) {sym_name = "a_c1_local"} : memref<512xf32>
    %b_c1_local = aie.buffer(%core_1_2) {sym_name = "b_c1_local"} : memref<512xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_a: memref<512xf32>, %in_b: memref<512xf32>, %out_y: memref<512xi8>) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c1 = arith.constant 1 : index
      scf.for %i0 = %c0 to %c512 step %c1 {
        %v0 = memref.load %in_a[%i0] : memref<512xf32>
        %v1 = memref.load %in_b[%i0] : memref<512xf32>
        %v2 = arith.cmpf olt, %v0, %v1 : f32
        %v3 = arith.extui %v2 : i1 to i8
        memref.store %v3, %out_y[%i0] : memref<512xi8>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c0(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c512 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c0_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c512 step %c16 {
          %u1_a0 = arith.addi %c512, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c0_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<512xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
        func.call @body(%a_c0_local, %b_c0_local, %o) : (memref<512xf32>, memref<512xf32>, memref<512xi8>) -> ()
        aie.objectfifo.release @a_b_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c16 = arith.constant 16 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @a_b_c1(Consume, 1) : !aie.objectfifosubview<memref<1024xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<1024xf32>> -> memref<1024xf32>
        %u0_pad = arith.constant 0.0 : f32
        scf.for %u0_i0 = %c0 to %c512 step %c16 {
          %u0_a0 = arith.addi %c0, %u0_i0 : index
          %u0_v = vector.transfer_read %s0[%u0_a0], %u0_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
          vector.transfer_write %u0_v, %a_c1_local[%u0_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
        }
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c512 step %c16 {
          %u1_a0 = arith.addi %c512, %u1_i0 : index
          %u1_v = vector.transfer_read %s0[%u1_a0], %u1_pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
          vector.transfer_write %u1_v, %b_c1_local[%u1_i0] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
        }
        %o_sv = aie.objectfifo.acquire @y_c1(Produce, 1) : !aie.objectfifosubview<memref<512xi8>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xi8>> -> memref<512xi8>
        func.call @body(%a_c1_local, %b_c1_local, %o) : (memref<512xf32>, memref<512xf32>, memref<512xi8>) -> ()
        aie.objectfifo.release @a_b_c1(Consume, 1)
        aie.objectfifo.release @y_c1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%a_b: memref<2048xf32>, %y: memref<1024xi8>) {
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 0][1, 1, 2, 512][0, 512, 1024, 1]) {id = 0 : i64, metadata = @a_b_c0_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xi8>
      aiex.npu.dma_memcpy_nd(%a_b[0, 0, 0, 512][1, 1, 2, 512][0, 512, 1024, 1]) {id = 0 : i64, metadata = @a_b_c1_shim} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 512][1, 1, 1, 512][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<1024xi8>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
    }
  }
}
