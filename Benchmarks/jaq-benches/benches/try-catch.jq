[range(.) | try error catch .]
