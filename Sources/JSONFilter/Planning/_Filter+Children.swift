// SPDX-License-Identifier: Apache-2.0
/// The filters directly inside a filter, for passes that look at every one.
extension _Filter {
    func forEachChild(_ body: (_Filter) -> Void) {
        switch self {
        case .identity, .recurseAll, .literal, .format, .breakLabel, .variable:
            break
        case .index(let a, let b), .pipe(let a, let b), .comma(let a, let b), .arithmetic(_, let a, let b),
             .comparison(_, let a, let b), .and(let a, let b), .or(let a, let b), .alternative(let a, let b),
             .assign(_, let a, let b):
            body(a)
            body(b)
        case .slice(let target, let from, let to):
            body(target)
            from.map(body)
            to.map(body)
        case .iterate(let a), .optional(let a), .negate(let a), .label(_, let a):
            body(a)
        case .string(let pieces, _):
            for case .filter(let inner) in pieces { body(inner) }
        case .array(let inner):
            inner.map(body)
        case .object(let entries):
            for entry in entries {
                switch entry.key {
                case .computed(let key), .computedMember(let key): body(key)
                case .name: break
                }
                body(entry.value)
            }
        case .conditional(let branches, let otherwise):
            for branch in branches {
                body(branch.condition)
                body(branch.then)
            }
            otherwise.map(body)
        case .tryCatch(let tried, let handler):
            body(tried)
            handler.map(body)
        case .bind(let source, _, let rest):
            body(source)
            body(rest)
        case .reduce(let source, _, let initial, let update):
            body(source)
            body(initial)
            body(update)
        case .foreach(let source, _, let initial, let update, let extract):
            body(source)
            body(initial)
            body(update)
            extract.map(body)
        case .call(_, let arguments, _):
            arguments.forEach(body)
        case .define(let definition, let rest):
            body(definition.body)
            body(rest)
        }
    }
}
