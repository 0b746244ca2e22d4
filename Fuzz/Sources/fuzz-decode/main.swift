// SPDX-License-Identifier: Apache-2.0
import FuzzChecks
import FuzzDriver

// decode(JSONValue.self, from:) on any bytes: see DecodeValueCheck.
runFuzzer { data, size in
    do {
        _ = try DecodeValueCheck.run(bytes(data, size))
    } catch {
        report(error)
    }
    return 0
}
