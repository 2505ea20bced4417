// npubuild xdna kernel gelu_f32_8x1024_approximate-tanh
// op: gelu, dtype: f32, attrs: {"approximate":"tanh"}
// inputs: x: 8x1024 f32; output: y: 8x1024 f32
// device npu1, partition npu1: flat split, 8192 rows in chunks of 512, 4 column(s) x 4 core rows, 1 chunk(s) per core per run
// host buffers (XRT group id: name (parts x dtype)): 3: x (x 8192 x f32); 4: y (y 8192 x f32)
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
    %core_0_4 = aie.tile(0, 4)
    %core_1_4 = aie.tile(1, 4)
    %core_2_4 = aie.tile(2, 4)
    %core_3_4 = aie.tile(3, 4)
    %core_0_5 = aie.tile(0, 5)
    %core_1_5 = aie.tile(1, 5)
    %core_2_5 = aie.tile(2, 5)
    %core_3_5 = aie.tile(3, 5)
    aie.objectfifo @x_c0_shim(%shim_0_0, {%mem_0_1}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c0_r0(%mem_0_1, {%core_0_2}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c0_r1(%mem_0_1, {%core_0_3}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c0_r2(%mem_0_1, {%core_0_4}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c0_r3(%mem_0_1, {%core_0_5}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r0(%core_0_2, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r1(%core_0_3, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r2(%core_0_4, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_r3(%core_0_5, {%mem_0_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c0_shim(%mem_0_1, {%shim_0_0}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c1_shim(%shim_1_0, {%mem_1_1}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c1_r0(%mem_1_1, {%core_1_2}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r1(%mem_1_1, {%core_1_3}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r2(%mem_1_1, {%core_1_4}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c1_r3(%mem_1_1, {%core_1_5}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r0(%core_1_2, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r1(%core_1_3, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r2(%core_1_4, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_r3(%core_1_5, {%mem_1_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c1_shim(%mem_1_1, {%shim_1_0}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c2_shim(%shim_2_0, {%mem_2_1}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c2_r0(%mem_2_1, {%core_2_2}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r1(%mem_2_1, {%core_2_3}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r2(%mem_2_1, {%core_2_4}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c2_r3(%mem_2_1, {%core_2_5}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r0(%core_2_2, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r1(%core_2_3, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r2(%core_2_4, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_r3(%core_2_5, {%mem_2_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c2_shim(%mem_2_1, {%shim_2_0}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c3_shim(%shim_3_0, {%mem_3_1}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo @x_c3_r0(%mem_3_1, {%core_3_2}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r1(%mem_3_1, {%core_3_3}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r2(%mem_3_1, {%core_3_4}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @x_c3_r3(%mem_3_1, {%core_3_5}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r0(%core_3_2, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r1(%core_3_3, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r2(%core_3_4, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_r3(%core_3_5, {%mem_3_1}, 2 : i32) : !aie.objectfifo<memref<512xf32>>
    aie.objectfifo @y_c3_shim(%mem_3_1, {%shim_3_0}, 1 : i32) : !aie.objectfifo<memref<2048xf32>>
    aie.objectfifo.link [@x_c0_shim] -> [@x_c0_r0, @x_c0_r1, @x_c0_r2, @x_c0_r3] ([] [0, 512, 1024, 1536])
    aie.objectfifo.link [@y_c0_r0, @y_c0_r1, @y_c0_r2, @y_c0_r3] -> [@y_c0_shim] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@x_c1_shim] -> [@x_c1_r0, @x_c1_r1, @x_c1_r2, @x_c1_r3] ([] [0, 512, 1024, 1536])
    aie.objectfifo.link [@y_c1_r0, @y_c1_r1, @y_c1_r2, @y_c1_r3] -> [@y_c1_shim] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@x_c2_shim] -> [@x_c2_r0, @x_c2_r1, @x_c2_r2, @x_c2_r3] ([] [0, 512, 1024, 1536])
    aie.objectfifo.link [@y_c2_r0, @y_c2_r1, @y_c2_r2, @y_c2_r3] -> [@y_c2_shim] ([0, 512, 1024, 1536] [])
    aie.objectfifo.link [@x_c3_shim] -> [@x_c3_r0, @x_c3_r1, @x_c3_r2, @x_c3_r3] ([] [0, 512, 1024, 1536])
    aie.objectfifo.link [@y_c3_r0, @y_c3_r1, @y_c3_r2, @y_c3_r3] -> [@y_c3_shim] ([0, 512, 1024, 1536] [])
    // compute body: the host target compiles this same function
    func.func @body(%in_x: memref<512xf32>, %out_y: memref<512xf32>) {
      %c0 = arith.constant 0 : index
      %c512 = arith.constant 512 : index
      %c1 = arith.constant 1 : index
      %cst3_f32 = arith.constant -12.0 : f32
      %cst4_f32 = arith.constant 12.0 : f32
      %cst5_f32 = arith.constant 4097.0 : f32
      %cst6_f32 = arith.constant 0.07135481387376785 : f32
      %cst7_f32 = arith.constant 1.5957691669464111 : f32
      %cst8_f32 = arith.constant 2.3988324659995897e-09 : f32
      %cst9_f32 = arith.constant -4.534068054340423e-08 : f32
      %c2147483647_i32 = arith.constant 2147483647 : i32
      %cm2147483648_i32 = arith.constant -2147483648 : i32
      %cst12_f32 = arith.constant -110.0 : f32
      %cst13_f32 = arith.constant 89.0 : f32
      %cst14_f32 = arith.constant 1.4426950216293335 : f32
      %cst15_f32 = arith.constant 12582912.0 : f32
      %cst16_f32 = arith.constant -0.693359375 : f32
      %cst17_f32 = arith.constant 0.00021219444170128554 : f32
      %cst18_f32 = arith.constant 0.00019875691214110702 : f32
      %cst19_f32 = arith.constant 0.001398199936375022 : f32
      %cst20_f32 = arith.constant 0.008333452045917511 : f32
      %cst21_f32 = arith.constant 0.04166579619050026 : f32
      %cst22_f32 = arith.constant 0.1666666567325592 : f32
      %cst23_f32 = arith.constant 0.5 : f32
      %cst24_f32 = arith.constant 1.0 : f32
      %c1_i32 = arith.constant 1 : i32
      %c127_i32 = arith.constant 127 : i32
      %c23_i32 = arith.constant 23 : i32
      %cst28_f32 = arith.constant 0.0 : f32
      %cst29_f32 = arith.constant 0x7F800000 : f32
      scf.for %i0 = %c0 to %c512 step %c1 {
        %v0 = memref.load %in_x[%i0] : memref<512xf32>
        %v1 = arith.cmpf ogt, %v0, %cst3_f32 : f32
        %v2 = arith.select %v1, %v0, %cst3_f32 : f32
        %v3 = arith.cmpf olt, %v2, %cst4_f32 : f32
        %v4 = arith.select %v3, %v2, %cst4_f32 : f32
        %v5 = arith.mulf %v4, %v4 : f32
        %v6 = arith.mulf %v4, %cst5_f32 : f32
        %v7 = arith.subf %v6, %v4 : f32
        %v8 = arith.subf %v6, %v7 : f32
        %v9 = arith.subf %v4, %v8 : f32
        %v10 = arith.mulf %v4, %cst5_f32 : f32
        %v11 = arith.subf %v10, %v4 : f32
        %v12 = arith.subf %v10, %v11 : f32
        %v13 = arith.subf %v4, %v12 : f32
        %v14 = arith.mulf %v8, %v12 : f32
        %v15 = arith.subf %v14, %v5 : f32
        %v16 = arith.mulf %v8, %v13 : f32
        %v17 = arith.addf %v15, %v16 : f32
        %v18 = arith.mulf %v9, %v12 : f32
        %v19 = arith.addf %v17, %v18 : f32
        %v20 = arith.mulf %v9, %v13 : f32
        %v21 = arith.addf %v19, %v20 : f32
        %v22 = arith.mulf %cst6_f32, %v5 : f32
        %v23 = arith.mulf %cst6_f32, %cst5_f32 : f32
        %v24 = arith.subf %v23, %cst6_f32 : f32
        %v25 = arith.subf %v23, %v24 : f32
        %v26 = arith.subf %cst6_f32, %v25 : f32
        %v27 = arith.mulf %v5, %cst5_f32 : f32
        %v28 = arith.subf %v27, %v5 : f32
        %v29 = arith.subf %v27, %v28 : f32
        %v30 = arith.subf %v5, %v29 : f32
        %v31 = arith.mulf %v25, %v29 : f32
        %v32 = arith.subf %v31, %v22 : f32
        %v33 = arith.mulf %v25, %v30 : f32
        %v34 = arith.addf %v32, %v33 : f32
        %v35 = arith.mulf %v26, %v29 : f32
        %v36 = arith.addf %v34, %v35 : f32
        %v37 = arith.mulf %v26, %v30 : f32
        %v38 = arith.addf %v36, %v37 : f32
        %v39 = arith.addf %cst7_f32, %v22 : f32
        %v40 = arith.subf %v39, %cst7_f32 : f32
        %v41 = arith.subf %v39, %v40 : f32
        %v42 = arith.subf %cst7_f32, %v41 : f32
        %v43 = arith.subf %v22, %v40 : f32
        %v44 = arith.addf %v42, %v43 : f32
        %v45 = arith.mulf %cst6_f32, %v21 : f32
        %v46 = arith.mulf %cst8_f32, %v5 : f32
        %v47 = arith.addf %v45, %v46 : f32
        %v48 = arith.addf %v47, %cst9_f32 : f32
        %v49 = arith.addf %v38, %v48 : f32
        %v50 = arith.addf %v44, %v49 : f32
        %v51 = arith.mulf %v4, %v39 : f32
        %v52 = arith.mulf %v4, %cst5_f32 : f32
        %v53 = arith.subf %v52, %v4 : f32
        %v54 = arith.subf %v52, %v53 : f32
        %v55 = arith.subf %v4, %v54 : f32
        %v56 = arith.mulf %v39, %cst5_f32 : f32
        %v57 = arith.subf %v56, %v39 : f32
        %v58 = arith.subf %v56, %v57 : f32
        %v59 = arith.subf %v39, %v58 : f32
        %v60 = arith.mulf %v54, %v58 : f32
        %v61 = arith.subf %v60, %v51 : f32
        %v62 = arith.mulf %v54, %v59 : f32
        %v63 = arith.addf %v61, %v62 : f32
        %v64 = arith.mulf %v55, %v58 : f32
        %v65 = arith.addf %v63, %v64 : f32
        %v66 = arith.mulf %v55, %v59 : f32
        %v67 = arith.addf %v65, %v66 : f32
        %v68 = arith.mulf %v4, %v50 : f32
        %v69 = arith.addf %v67, %v68 : f32
        %v70 = arith.addf %v51, %v69 : f32
        %v71 = arith.subf %v70, %v51 : f32
        %v72 = arith.subf %v69, %v71 : f32
        %v73 = arith.bitcast %v70 : f32 to i32
        %v74 = arith.andi %v73, %c2147483647_i32 : i32
        %v75 = arith.bitcast %v74 : i32 to f32
        %v76 = arith.bitcast %v75 : f32 to i32
        %v77 = arith.xori %v76, %cm2147483648_i32 : i32
        %v78 = arith.bitcast %v77 : i32 to f32
        %v79 = arith.cmpf ogt, %v78, %cst12_f32 : f32
        %v80 = arith.select %v79, %v78, %cst12_f32 : f32
        %v81 = arith.cmpf olt, %v80, %cst13_f32 : f32
        %v82 = arith.select %v81, %v80, %cst13_f32 : f32
        %v83 = arith.mulf %v82, %cst14_f32 : f32
        %v84 = arith.addf %v83, %cst15_f32 : f32
        %v85 = arith.subf %v84, %cst15_f32 : f32
        %v86 = arith.mulf %v85, %cst16_f32 : f32
        %v87 = arith.addf %v86, %v82 : f32
        %v88 = arith.mulf %v85, %cst17_f32 : f32
        %v89 = arith.addf %v88, %v87 : f32
        %v90 = arith.mulf %cst18_f32, %v89 : f32
        %v91 = arith.addf %v90, %cst19_f32 : f32
        %v92 = arith.mulf %v91, %v89 : f32
        %v93 = arith.addf %v92, %cst20_f32 : f32
        %v94 = arith.mulf %v93, %v89 : f32
        %v95 = arith.addf %v94, %cst21_f32 : f32
        %v96 = arith.mulf %v95, %v89 : f32
        %v97 = arith.addf %v96, %cst22_f32 : f32
        %v98 = arith.mulf %v97, %v89 : f32
        %v99 = arith.addf %v98, %cst23_f32 : f32
        %v100 = arith.mulf %v89, %v89 : f32
        %v101 = arith.mulf %v99, %v100 : f32
        %v102 = arith.addf %v101, %v89 : f32
        %v103 = arith.addf %v102, %cst24_f32 : f32
        %v104 = arith.fptosi %v85 : f32 to i32
        %v105 = arith.bitcast %v70 : f32 to i32
        %v106 = arith.andi %v105, %cm2147483648_i32 : i32
        %v107 = arith.bitcast %v72 : f32 to i32
        %v108 = arith.xori %v107, %v106 : i32
        %v109 = arith.bitcast %v108 : i32 to f32
        %v110 = arith.bitcast %v109 : f32 to i32
        %v111 = arith.xori %v110, %cm2147483648_i32 : i32
        %v112 = arith.bitcast %v111 : i32 to f32
        %v113 = arith.addf %cst24_f32, %v112 : f32
        %v114 = arith.mulf %v103, %v113 : f32
        %v115 = arith.shrsi %v104, %c1_i32 : i32
        %v116 = arith.subi %v104, %v115 : i32
        %v117 = arith.addi %v115, %c127_i32 : i32
        %v118 = arith.shli %v117, %c23_i32 : i32
        %v119 = arith.bitcast %v118 : i32 to f32
        %v120 = arith.mulf %v114, %v119 : f32
        %v121 = arith.addi %v116, %c127_i32 : i32
        %v122 = arith.shli %v121, %c23_i32 : i32
        %v123 = arith.bitcast %v122 : i32 to f32
        %v124 = arith.mulf %v120, %v123 : f32
        %v125 = arith.cmpf oge, %v0, %cst28_f32 : f32
        %v126 = arith.mulf %v4, %v114 : f32
        %v127 = arith.shrsi %v104, %c1_i32 : i32
        %v128 = arith.subi %v104, %v127 : i32
        %v129 = arith.addi %v127, %c127_i32 : i32
        %v130 = arith.shli %v129, %c23_i32 : i32
        %v131 = arith.bitcast %v130 : i32 to f32
        %v132 = arith.mulf %v126, %v131 : f32
        %v133 = arith.addi %v128, %c127_i32 : i32
        %v134 = arith.shli %v133, %c23_i32 : i32
        %v135 = arith.bitcast %v134 : i32 to f32
        %v136 = arith.mulf %v132, %v135 : f32
        %v137 = arith.select %v125, %v0, %v136 : f32
        %v138 = arith.addf %cst24_f32, %v124 : f32
        %v139 = arith.subf %cst24_f32, %v138 : f32
        %v140 = arith.addf %v139, %v124 : f32
        %v141 = arith.divf %v137, %v138 : f32
        %v142 = arith.mulf %v141, %v140 : f32
        %v143 = arith.divf %v142, %v138 : f32
        %v144 = arith.subf %v141, %v143 : f32
        %v145 = arith.bitcast %v141 : f32 to i32
        %v146 = arith.andi %v145, %c2147483647_i32 : i32
        %v147 = arith.bitcast %v146 : i32 to f32
        %v148 = arith.cmpf ogt, %v147, %cst28_f32 : f32
        %v149 = arith.cmpf olt, %v147, %cst29_f32 : f32
        %v150 = arith.andi %v148, %v149 : i1
        %v151 = arith.select %v150, %v144, %v141 : f32
        %v152 = arith.cmpf uno, %v0, %v0 : f32
        %v153 = arith.select %v152, %v0, %v151 : f32
        memref.store %v153, %out_y[%i0] : memref<512xf32>
      }
      return
    }
    %run_0_2 = aie.core(%core_0_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c0_r0(Consume, 1)
        aie.objectfifo.release @y_c0_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_3 = aie.core(%core_0_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c0_r1(Consume, 1)
        aie.objectfifo.release @y_c0_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_4 = aie.core(%core_0_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r2(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c0_r2(Consume, 1)
        aie.objectfifo.release @y_c0_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_0_5 = aie.core(%core_0_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c0_r3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c0_r3(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c0_r3(Consume, 1)
        aie.objectfifo.release @y_c0_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_2 = aie.core(%core_1_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c1_r0(Consume, 1)
        aie.objectfifo.release @y_c1_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_3 = aie.core(%core_1_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c1_r1(Consume, 1)
        aie.objectfifo.release @y_c1_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_4 = aie.core(%core_1_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r2(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c1_r2(Consume, 1)
        aie.objectfifo.release @y_c1_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_1_5 = aie.core(%core_1_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c1_r3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c1_r3(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c1_r3(Consume, 1)
        aie.objectfifo.release @y_c1_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_2 = aie.core(%core_2_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c2_r0(Consume, 1)
        aie.objectfifo.release @y_c2_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_3 = aie.core(%core_2_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c2_r1(Consume, 1)
        aie.objectfifo.release @y_c2_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_4 = aie.core(%core_2_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r2(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c2_r2(Consume, 1)
        aie.objectfifo.release @y_c2_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_2_5 = aie.core(%core_2_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c2_r3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c2_r3(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c2_r3(Consume, 1)
        aie.objectfifo.release @y_c2_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_2 = aie.core(%core_3_2) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r0(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r0(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c3_r0(Consume, 1)
        aie.objectfifo.release @y_c3_r0(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_3 = aie.core(%core_3_3) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r1(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r1(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c3_r1(Consume, 1)
        aie.objectfifo.release @y_c3_r1(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_4 = aie.core(%core_3_4) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r2(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r2(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c3_r2(Consume, 1)
        aie.objectfifo.release @y_c3_r2(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    %run_3_5 = aie.core(%core_3_5) {
      %c0 = arith.constant 0 : index
      %c9223372036854775807 = arith.constant 9223372036854775807 : index
      %c1 = arith.constant 1 : index
      scf.for %run = %c0 to %c9223372036854775807 step %c1 {
        %s0_sv = aie.objectfifo.acquire @x_c3_r3(Consume, 1) : !aie.objectfifosubview<memref<512xf32>>
        %s0 = aie.objectfifo.subview.access %s0_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        %o_sv = aie.objectfifo.acquire @y_c3_r3(Produce, 1) : !aie.objectfifosubview<memref<512xf32>>
        %o = aie.objectfifo.subview.access %o_sv[0] : !aie.objectfifosubview<memref<512xf32>> -> memref<512xf32>
        func.call @body(%s0, %o) : (memref<512xf32>, memref<512xf32>) -> ()
        aie.objectfifo.release @x_c3_r3(Consume, 1)
        aie.objectfifo.release @y_c3_r3(Produce, 1)
      }
      aie.end
    } {stack_size = 1024 : i32}
    aie.runtime_sequence(%x: memref<8192xf32>, %y: memref<8192xf32>) {
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 0][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c0_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 2048][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 2048][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c1_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 4096][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 4096][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c2_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%x[0, 0, 0, 6144][1, 1, 1, 2048][0, 0, 0, 1]) {id = 0 : i64, metadata = @x_c3_shim} : memref<8192xf32>
      aiex.npu.dma_memcpy_nd(%y[0, 0, 0, 6144][1, 1, 1, 2048][0, 0, 0, 1]) {id = 1 : i64, issue_token = true, metadata = @y_c3_shim} : memref<8192xf32>
      aiex.npu.dma_wait {symbol = @y_c0_shim}
      aiex.npu.dma_wait {symbol = @y_c1_shim}
      aiex.npu.dma_wait {symbol = @y_c2_shim}
      aiex.npu.dma_wait {symbol = @y_c3_shim}
    }
  }
}
