[range(.) | [.]] | add
