[range(.)] | min, max
