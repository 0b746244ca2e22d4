// SPDX-License-Identifier: Apache-2.0
/// `convertToSnakeCase`, as Foundation defines it: words split where a lower-
/// case letter is followed by an upper-case one, and where a run of several
/// upper-case letters is followed by a lower-case one (the run's last letter
/// starts the next word); words joined with `_` and lowercased.
/// `myURLKey` → `my_url_key`, `ABC` → `a_bc`, `_leading` stays as it is.
///
/// Letters are classified per Unicode scalar (categories Lu/Lt and Ll, as
/// `CharacterSet.uppercaseLetters`/`.lowercaseLetters`), while a "letter after"
/// is the next `Character`, both as in Foundation.
func _convertToSnakeCase(_ key: String) -> String {
    guard !key.isEmpty else { return key }
    var words: [Range<String.Index>] = []
    var wordStart = key.startIndex
    var searchRange = key.index(after: wordStart)..<key.endIndex

    while let upper = _firstScalar(in: key, searchRange, where: _isUppercaseLetter) {
        words.append(wordStart..<upper)
        searchRange = upper..<searchRange.upperBound
        guard let lower = _firstScalar(in: key, searchRange, where: _isLowercaseLetter) else {
            wordStart = searchRange.lowerBound
            break
        }
        let afterCapital = key.index(after: upper)
        if lower == afterCapital {
            // A capitalized word: it goes on until the next upper-case letter.
            wordStart = upper
        } else {
            // A run of capitals is a word of its own, except its last letter,
            // which begins the word of the lower-case letters after it.
            let beforeLower = key.index(before: lower)
            words.append(upper..<beforeLower)
            wordStart = beforeLower
        }
        searchRange = key.unicodeScalars.index(after: lower)..<searchRange.upperBound
    }
    words.append(wordStart..<searchRange.upperBound)
    return words.map { key[$0].lowercased() }.joined(separator: "_")
}

private func _firstScalar(in key: String, _ range: Range<String.Index>,
                          where predicate: (Unicode.Scalar) -> Bool) -> String.Index? {
    let scalars = key.unicodeScalars
    var index = range.lowerBound
    while index < range.upperBound {
        if predicate(scalars[index]) { return index }
        index = scalars.index(after: index)
    }
    return nil
}

private func _isUppercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .titlecaseLetter: return true
    default: return false
    }
}

private func _isLowercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .lowercaseLetter
}
