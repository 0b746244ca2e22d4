[range(.) | {(tostring): .}] | add | .[] += 1
