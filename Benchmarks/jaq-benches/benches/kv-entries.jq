[range(.) | {(tostring): .}] | add | with_entries(.value += 1)
