// SPDX-License-Identifier: Apache-2.0
import FilterFuzzChecks
import FuzzDriver

FilterCheck.prepare()

// A jq program compiled and run on a fixed document: see FilterCheck.
runFuzzer { data, size in
    do {
        _ = try FilterCheck.run(bytes(data, size))
    } catch {
        report(error)
    }
    return 0
}
