// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `[Element]` decoded from a streamed root array, with its storage sized
/// once from the input's size.
///
/// The standard library's `Array.init(from:)` appends element by element,
/// doubling the storage: a large array is copied about once over into
/// fresh memory, and every page of each discarded buffer is faulted in
/// first. Once a few hundred elements are decoded, the bytes they took
/// predict how many the whole input holds; the storage is reserved for
/// that count (and an eighth more) in one step. An estimate that falls
/// short only means that doubling resumes from there; room reserved and
/// never written is address space, not memory.
protocol _StreamedRootArray {
    static func _decodeStreamedRoot(_ decoder: _TapeDecoder, inputSize: Int) throws -> Self
}

extension Array: _StreamedRootArray where Element: Decodable {
    static func _decodeStreamedRoot(_ decoder: _TapeDecoder, inputSize: Int) throws -> [Element] {
        var container = _IncrementalUnkeyedContainer(decoder: decoder, path: .root)
        var elements: [Element] = []
        var estimated = false
        while !container.isAtEnd {
            if !estimated, elements.count >= _RootArrayEstimate.sample, elements.count == elements.capacity {
                estimated = true
                let end = decoder.stream.elementEnd(elements.count - 1)
                if let capacity = _RootArrayEstimate.capacity(after: elements.count, endingAt: end,
                                                              of: inputSize) {
                    elements.reserveCapacity(capacity)
                }
            }
            elements.append(try container.decode(Element.self))
        }
        return elements
    }
}

/// The arithmetic of the estimate, kept out of the generic function.
enum _RootArrayEstimate {
    /// Elements decoded before the estimate is made.
    static let sample = 512

    /// The capacity for the whole input, when `count` elements ended at
    /// byte `end` and that predicts more than doubling would give.
    static func capacity(after count: Int, endingAt end: UInt64?, of inputSize: Int) -> Int? {
        guard let end, end > 0, inputSize > 0 else { return nil }
        let perElement = Double(end) / Double(count)
        let predicted = Double(inputSize) / perElement
        let capacity = predicted + predicted / 8
        guard capacity > Double(count * 2), capacity < Double(Int.max / 2) else { return nil }
        return Int(capacity)
    }
}
