// npubuild xdna kernel attention_f32_16x64_16x64_16x64_num_heads-1_head_dim-64_mask-causal
// op: attention, dtype: f32, attrs: {"head_dim":64,"kv_num_heads":0,"mask":"causal","mask_kind":"bool","num_heads":1,"scale":0.0,"softcap":0.0}
// inputs: q: 16x64 f32, k: 16x64 f32, v: 16x64 f32; output: y: 16x64 f32
// device npu2, partition npu2_1col: whole split, 1 rows in chunks of 1, 1 column(s), 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: q (q 1024 x f32); 4: k_v (k 1024 | v 1024 x f32); 5: y (y 1024 x f32)
module {
  aie.device(npu2_1col) {
    %shim_0_0 = aie.tile(0, 0)
    %mem_0_1 = aie.tile(0, 1)
    %core_0_2 = aie.tile(0, 2)
    aie.objectfifo @q_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo @q_c0(%mem_0_1, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo @k_v_c0(%shim_0_0, {%core_0_2}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @y_c0(%core_0_2, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<16x64xf32>>
    aie.objectfifo.link [@q_c0_shim] -> [@q_c0] ([] [])
    aie.objectfifo.link [@y_c0] -> [@y_c0_shim] ([] [])
    %k_c0_local = aie.buffer(%core_0_2) {sym_name = "k_c0_local"} : memref<16x64xf32>
    %v_c0_local = aie.buffer(%core_0_2) {sym_name = "v_c0_local"} : memref<16x64xf32>
    // compute body: the host target compiles this same function
    func.func @body(%in_q: memref<16x64xf32>, %in_k: memref<16x64xf32>, %in_v: memref<16x64xf32>, %out_y: memref<16x64xf32>) {
      %cst0_f32 = arith.constant 0.0 : f32
      %cst1_f32 = arith.constant 0xFF800000 : f32
      %cst2_f32 = arith.constant 0.125 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %cst7_f32 = arith.constant -110.0 : f32
      %cst8_f32 = arith.constant 89.0 : f32
      %cst9_f32 = arith.constant 1.4426950216293335 : f32
      %cst10_f32 = arith.constant 12582912.0 : f32
      %cst11_f32 = arith.constant -0.693359375 : f32
      %cst12_f32 = arith.constant 0.00021219444170128554 : f32
      %cst13_f32 = arith.constant 0.00019875691214110702 : f32
      %cst14_f32 = arith.constant 0.001398199936375022 : f32
      %cst15_f32 = arith.constant 0.008333452045917511 : f32
      %cst16_f32 = arith.constant 0.04166579619050026 : f32
      %cst17_f32 = arith.constant 0.1666666567325592 : f32
      %cst18_f32 = arith.constant 0.5 : f32
      %cst19_f32 = arith.constant 1.0 : f32
      %c1_i32 = arith.constant 1 : i32
      %c127_i32 = arith.constant 127 : i32
      %c23_i32 = arith.constant 23 : i32
      %v0 = memref.alloca() : memref<16xf32>
      scf.for %i0 = %c0 to %c1 step %c1 {
        scf.for %i1 = %c0 to %c16 step %c1 {
          %v1 = arith.muli %i0, %c64 : index
          %v2 = arith.addi %i1, %c1 : index
          %v5 = scf.for %v3 = %c0 to %v2 step %c1 iter_args(%v4 = %cst1_f32) -> (f32) {
            %v8 = scf.for %v6 = %c0 to %c64 step %c1 iter_args(%v7 = %cst0_f32) -> (f32) {
              %v9 = arith.addi %v1, %v6 : index
              %v10 = memref.load %in_q[%i1, %v9] : memref<16x64xf32>
              %v11 = memref.load %in_k[%v3, %v9] : memref<16x64xf32>
              %v12 = arith.mulf %v10, %v11 : f32
              %v13 = arith.addf %v7, %v12 : f32
              scf.yield %v13 : f32
            }
            %v14 = arith.mulf %v8, %cst2_f32 : f32
            memref.store %v14, %v0[%v3] : memref<16xf32>
            %v15 = arith.maximumf %v4, %v14 : f32
            scf.yield %v15 : f32
          }
          %v18 = scf.for %v16 = %c0 to %v2 step %c1 iter_args(%v17 = %cst0_f32) -> (f32) {
            %v19 = memref.load %v0[%v16] : memref<16xf32>
            %v20 = arith.subf %v19, %v5 : f32
            %v21 = arith.cmpf ogt, %v20, %cst7_f32 : f32
            %v22 = arith.select %v21, %v20, %cst7_f32 : f32
            %v23 = arith.cmpf olt, %v22, %cst8_f32 : f32
            %v24 = arith.select %v23, %v22, %cst8_f32 : f32
            %v25 = arith.mulf %v24, %cst9_f32 : f32
            %v26 = arith.addf %v25, %cst10_f32 : f32
            %v27 = arith.subf %v26, %cst10_f32 : f32
            %v28 = arith.mulf %v27, %cst11_f32 : f32
            %v29 = arith.addf %v28, %v24 : f32
            %v30 = arith.mulf %v27, %cst12_f32 : f32
            %v31 = arith.addf %v30, %v29 : f32
            %v32 = arith.mulf %cst13_f32, %v31 : f32
            %v33 = arith.addf %v32, %cst14_f32 : f32
            %v34 = arith.mulf %v33, %v31 : f32
            %v35 = arith.addf %v34, %cst15_f32 : f32
            %v36 = arith.mulf %v35, %v31 : f32
            %v37 = arith.addf %v36, %cst16_f32 : f32
            %v38 = arith.mulf %v37, %v31 : f32
            %v39 = arith.addf %v38, %cst17_f32 : f32
            %v40 = arith.mulf %v39, %v31 : f32
            %v41 = arith.addf %v40, %cst18_f32 : f32
            %v42 = arith.mulf %v31, %v31 : f32
            %v43 = arith.mulf %v41, %v42 : f32
            %v44 = arith.addf %v43, %v31 : f32
            %v45 = arith.addf %v44, %cst19_f32 : f32
            %v46 = arith.fptosi %v27 : f32 to i32
            %v47 = arith.cmpf uno, %v20, %v20 : f32
            %v48 = arith.shrsi %v46, %c1_i32 : i32
            %v49 = arith.subi %v46, %v48 : i32
            %v50 = arith.addi %v48, %c127_i32 : i32
            %v51 = arith.shli %v50, %c23_i32 : i32
            %v52 = arith.bitcast %v51 : i32 to f32
            %v53 = arith.mulf %v45, %v52 : f32
            %v54 = arith.addi %v49, %c127_i32 : i32
            %v55 = arith.shli %v54, %c23_i32 : i32
            %v56 = arith.bitcast %v55 : i32 to f32
            %v57 = arith.mulf %v53, %v56 : f32
            %v58 = arith.select %v47, %v20, %v57 : f32
            memref.store %v58, %v0[%v16] : memref<16xf32>
            %v59 = arith.addf %v17, %v58 : f32
            scf.yield %v59 : f32
          }
          scf.for %i2 = %c0 to %c64 step %c1 {
            %v60 = arith.addi %v1, %i2 : index
            %v63 = scf.for %v61 = %c0 to %v2 step %c1 iter_args(%v62 = %cst0_f32) -> (f32) {
              %v64 = memref.load %v0[%v61] : memref<16xf32>
              %v65 = memref.load %in_v[%v61, %v60] : memref<16x64xf32>
              %v66 = arith.mulf %v64, %v65 : f32
              %v67 = arith.addf %v62, %v66 : f32
              scf.yield %v67 : f32
            }
            %v68 = arith.divf %v63, %v18 : f32
            memref.store %v68, %out_y[%i1, %v60] : memref<16x64xf32>
          }
        }
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %p0_sv = aie.objectfifo.acquire @k_v_c0(Consume, 1) : !aie.objectfifosubview<memref<2048xf32>>
        %p0 = aie.objectfifo.subview.access %p0_sv[0] : !aie.objectfifosubview<memref<2048xf32>> -> memref<2048xf32>
        %u1_pad = arith.constant 0.0 : f32
        scf.for %u1_i0 = %c0 to %c16 step %c1 {
          scf.for %u1_i1 = %c0 to %c64 step %c16 {
            %u1_a0 = arith.addi %c0, %u1_i1 : index
            %u1_m1 = arith.muli %u1_i0, %c64 : index
            %u1_a1 = arith.addi %u1_a0, %u1_m1 : index
            %u1_v = vector.transfer_read %p0[%u1_a1], %u1_pad {in_bounds = [true]} : memref<2048xf32>, vector<16xf32>
            vector.transfer_write %u1_v, %k_c0_local[%u1_i0, %u1_i1] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
          }
        }
        %u2_pad = arith.constant 0.0 : f32
        scf.for %u2_i0 = %c0 to %c16 step %c1 {
          scf.for %u2_i1 = %c0 to %c64 step %c16 {
            %u2_a0 = arith.addi %c1024, %u2_i1 : index
            %u2_m1 = arith.muli %u2_i0, %c64 : index
            %u2_a1 = arith.addi %u2_a0, %u2_m1 : index
            %u2_v = vector.transfer_read %p0[%u2_a1], %u2_pad {in_bounds = [true]} : memref<2048xf32>, vector<16xf32>
            vector.transfer_write %u2_v, %v_c0_local[%u2_i0, %u2_i1] {in_bounds = [true]} : vector<16xf32>, memref<16x64xf32>
          }
        }
        %s0_sv = aie.objectfifo.acquire @q_c0(Consume, 1) : !aie.objectfifosubview<memref<16x64xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<16x64xf32>> -> memref<16x64xf32>
        %o_sv = aie.objectfifo.acquire @y_c0(Produce, 1) : !aie.objectfifosubview<memref<16x64xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<16x64xf32>> -> memref<16x64xf32>
        func.call @body(%s0, %k_c0_local, %v_c0_local, %o) : (memref<16x64xf32>, memref<16x64xf32>, memref<16x64xf32>, memref<16x64xf32>) -> ()
        aie.objectfifo.release @q_c0(Consume, 1)
        aie.objectfifo.release @y_c0(Produce, 1)
        aie.objectfifo.release @k_v_c0(Consume, 1)
      }
      aie.end
    } {stack_size = 1088 : i32}
    aie.runtime_sequence(%q: memref<1024xf32>, %k_v: memref<2048xf32>, %y: memref<1024xf32>) {
      aiex.npu.dma_memcpy_nd(%q[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 0 : i64, metadata = @q_c0_shim} : memref<1024xf32>
      aiex.npu.dma_memcpy_nd(%k_v[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, metadata = @k_v_c0} : memref<2048xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 1024][0, 0, 0, 1]) {id = 2 : i64, issue_token = true, metadata = @y_c0_shim} : memref<1024xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
    }
  }
}
