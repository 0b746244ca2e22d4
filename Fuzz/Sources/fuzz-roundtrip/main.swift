// SPDX-License-Identifier: Apache-2.0
import FuzzChecks
import FuzzDriver

// decode(encode(v)) == v for JSONValues built from the input: see RoundTripCheck.
runFuzzer { data, size in
    do {
        _ = try RoundTripCheck.run(bytes(data, size))
    } catch {
        report(error)
    }
    return 0
}
