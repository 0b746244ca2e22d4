[range(.)] | reverse
