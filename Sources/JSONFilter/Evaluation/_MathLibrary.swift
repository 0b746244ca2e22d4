// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StreamingJSON

/// jq 1.8.2's math library: the C math functions its `src/libm.h` lists,
/// as pure functions for the evaluator to call.
///
/// jq passes the numbers straight to the C library, so these do too (the
/// results, special values included, are the C library's); where jq's C
/// call converts an argument to an integer, the conversion is spelled out
/// here the way jq's x86-64 build does it. Type checks are the caller's:
/// `number(_:for:)` and `typeError(_:_:)` give jq's message.
enum _MathLibrary {
    /// jq's math functions taking the input as their argument (`floor`,
    /// `sqrt`, `exp10`, `frexp`, `modf`, `lgamma_r`, the trigonometric and
    /// hyperbolic ones, the Bessel functions, …): every 0-arity one in jq
    /// 1.8.2's libm.h. Nil for other names.
    static func unary(_ name: String) -> ((Double) -> JSONValue)? {
        if let function = _plainUnary(name) {
            return { .number(JSONNumber(function($0))) }
        }
        switch name {
        case "frexp":
            // [mantissa, exponent]
            return { x in
                var exponent: Int32 = 0
                let mantissa = unsafe frexp(x, &exponent)
                return _pair(mantissa, Double(exponent))
            }
        case "modf":
            // [fractional part, integral part]: C's return value first.
            return { x in
                var integral = 0.0
                let fractional = unsafe modf(x, &integral)
                return _pair(fractional, integral)
            }
        case "lgamma_r":
            // [log|Γ(x)|, sign of Γ(x)]
            return { x in
                let (value, sign) = _lgammaWithSign(x)
                return _pair(value, Double(sign))
            }
        default:
            return nil
        }
    }

    /// The two-argument ones, called in jq as `name(a; b)`. Nil for other
    /// names.
    static func binary(_ name: String) -> ((Double, Double) -> JSONValue)? {
        guard let function = _plainBinary(name) else { return nil }
        return { .number(JSONNumber(function($0, $1))) }
    }

    /// The three-argument one, `fma(a; b; c)`. Nil for other names.
    static func ternary(_ name: String) -> ((Double, Double, Double) -> JSONValue)? {
        guard name == "fma" else { return nil }
        return { .number(JSONNumber(fma($0, $1, $2))) }
    }

    /// All names with their jq arity (0, 2 or 3), for registration.
    static let names: [(name: String, arity: Int)] =
        _unaryNames.map { ($0, 0) } + _binaryNames.map { ($0, 2) } + [("fma", 3)]

    /// The error jq 1.8.2 raises when an input or argument of a math
    /// function is not a number: `string ("a") number required`. jq's text
    /// does not name the function; `name` is taken so that every caller
    /// passes the same pair whichever function failed.
    static func typeError(_ name: String, _ value: JSONValue) -> JSONFilterError {
        JSONFilterError(message: "\(_describe(value)) number required")
    }

    /// The number in `value`, or `typeError(name, value)`. jq checks the
    /// arguments of `name(a; b)` in order, so the first non-number is the
    /// one reported.
    static func number(_ value: JSONValue, for name: String) throws -> Double {
        guard case .number(let number) = value else { throw typeError(name, value) }
        return number.double
    }

    private static let _unaryNames = [
        "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh",
        "exp", "exp2", "floor", "j0", "j1", "log", "log10", "log2", "sin", "sinh",
        "sqrt", "tan", "tanh", "tgamma", "y0", "y1", "ceil", "erf", "erfc", "exp10",
        "expm1", "fabs", "gamma", "lgamma", "log1p", "logb", "nearbyint", "rint",
        "round", "significand", "trunc", "modf", "frexp", "lgamma_r",
    ]

    private static let _binaryNames = [
        "atan2", "hypot", "pow", "remainder", "jn", "yn", "copysign", "drem",
        "fdim", "fmax", "fmin", "fmod", "nextafter", "nexttoward", "scalb",
        "scalbln", "ldexp",
    ]
}

private func _pair(_ first: Double, _ second: Double) -> JSONValue {
    .array([.number(JSONNumber(first)), .number(JSONNumber(second))])
}

// The contextual function types pick the C library's double versions.
private func _plainUnary(_ name: String) -> ((Double) -> Double)? {
    switch name {
    case "acos": acos
    case "acosh": acosh
    case "asin": asin
    case "asinh": asinh
    case "atan": atan
    case "atanh": atanh
    case "cbrt": cbrt
    case "cos": cos
    case "cosh": cosh
    case "exp": exp
    case "exp2": exp2
    case "floor": floor
    case "j0": j0
    case "j1": j1
    case "log": log
    case "log10": log10
    case "log2": log2
    case "sin": sin
    case "sinh": sinh
    case "sqrt": sqrt
    case "tan": tan
    case "tanh": tanh
    case "tgamma": tgamma
    case "y0": y0
    case "y1": y1
    case "ceil": ceil
    case "erf": erf
    case "erfc": erfc
    case "exp10": _exp10
    case "expm1": expm1
    case "fabs": fabs
    // glibc's gamma is lgamma (not tgamma), and jq 1.8.2 on Linux calls it.
    case "gamma", "lgamma": lgamma
    case "log1p": log1p
    case "logb": logb
    case "nearbyint": nearbyint
    case "rint": rint
    case "round": round
    case "significand": _significand
    case "trunc": trunc
    default: nil
    }
}

private func _plainBinary(_ name: String) -> ((Double, Double) -> Double)? {
    switch name {
    case "atan2": atan2
    case "hypot": hypot
    case "pow": pow
    // glibc's drem is remainder under its BSD name.
    case "remainder", "drem": remainder
    // jq passes the first argument to jn/yn's int parameter. NaN and huge
    // orders become INT_MIN, from which glibc's jn recurs for seconds (as
    // in jq) unless x is 0.
    case "jn": { jn(_cInt($0), $1) }
    case "yn": { yn(_cInt($0), $1) }
    case "copysign": copysign
    case "fdim": fdim
    case "fmax": fmax
    case "fmin": fmin
    case "fmod": fmod
    // nexttoward's long double target holds any double exactly, so stepping
    // towards it is nextafter (and Swift cannot name long double everywhere).
    case "nextafter", "nexttoward": nextafter
    case "scalb": scalb
    // ldexp is scalbn for binary doubles; jq passes the exponent as int.
    case "ldexp": { scalbn($0, _cInt($1)) }
    case "scalbln": { scalbln($0, _cLong($1)) }
    default: nil
    }
}

/// C's double-to-int conversion as jq's x86-64 build performs it: truncation,
/// and INT_MIN for NaN and for values out of range (where C leaves it
/// undefined), so that `jn(1e10; 1)` is `jn(INT_MIN, 1)` as in jq.
private func _cInt(_ value: Double) -> Int32 {
    guard value > -2147483649.0, value < 2147483648.0 else { return .min }
    return Int32(value)
}

/// C's double-to-long (and time_t) conversion, likewise: LONG_MIN for NaN
/// and out of range.
func _cLong(_ value: Double) -> Int {
    guard value >= -0x1p63, value < 0x1p63 else { return .min }
    return Int(value)
}

#if canImport(Glibc)
private typealias _CUnary = @convention(c) (Double) -> Double

/// glibc's exp10, which is a GNU extension the Glibc module does not
/// declare; found at run time because pow(10, x) differs from it in the
/// last place (`-1 | exp10` is 0.09999999999999999 in jq on glibc).
private let _glibcExp10: _CUnary? = unsafe dlsym(dlopen(nil, RTLD_NOW), "exp10")
    .map { unsafe unsafeBitCast($0, to: _CUnary.self) }

private func _exp10(_ x: Double) -> Double {
    _glibcExp10?(x) ?? pow(10, x)
}

private func _significand(_ x: Double) -> Double { significand(x) }

private func _lgammaWithSign(_ x: Double) -> (Double, Int32) {
    var sign: Int32 = 0
    let value = unsafe lgamma_r(x, &sign)
    return (value, sign)
}
#else
private func _exp10(_ x: Double) -> Double { __exp10(x) }

/// glibc's significand (scalb(x, -ilogb(x))) without it: the same for
/// every double, zeros, infinities and NaN included.
private func _significand(_ x: Double) -> Double {
    var exponent: Int32 = 0
    return 2 * frexp(x, &exponent)
}

private func _lgammaWithSign(_ x: Double) -> (Double, Int32) {
    let (value, sign) = lgamma(x)
    return (value, Int32(sign))
}
#endif

