[range(.) | {(tostring): .}] | add
