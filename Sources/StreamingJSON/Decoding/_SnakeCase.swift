// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `convertFromSnakeCase`, as Foundation defines it: underscores at the start
/// and end are kept; the words between are split at runs of underscores, the
/// first is lowercased and the others capitalized, and joined. A key whose
/// middle has no underscore is returned unchanged (it may be camelCase already).
func _convertFromSnakeCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    guard let lastNonUnderscore = key.lastIndex(where: { $0 != "_" }) else { return key }
    let middle = key[first...lastNonUnderscore]
    let words = middle.split(separator: "_")
    guard words.count > 1 else { return key }
    var result = String(key[..<first])
    result += words[0].lowercased()
    for word in words.dropFirst() {
        result += word.capitalized
    }
    result += key[key.index(after: lastNonUnderscore)...]
    return result
}
