nth(.; 0 | recurse([., .])) | (.. | scalars) |= .+1
