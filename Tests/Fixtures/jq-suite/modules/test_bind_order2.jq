def sym2: 2;
