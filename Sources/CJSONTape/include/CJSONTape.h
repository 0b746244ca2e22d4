// SPDX-License-Identifier: Apache-2.0
// The tape recorder: yajl's parse events written, by C callbacks, into flat
// arrays that Swift decodes, so that no Swift code runs per token while yajl
// parses. This header is the whole interface; the parser's state is declared
// here only so that Swift can read the tape without a call per field.
//
//   tokens   [ sj_token ... ]    16 bytes each, in document order
//   arena    [ bytes ... ]       the bytes of every string, key and number
//   elements [ sj_element ... ]  where each complete streamed element starts
//
//   sj_token.word  bits 56..63  kind (SJ_NULL ... SJ_MARK)
//                  bits  0..55  absolute offset of the value's first byte
//   sj_token.a     string, key, number: offset of its bytes in the arena
//                  array, object: number of tokens inside (its span)
//   sj_token.b     string, key, number: byte length
//                  array, object: number of elements or members
//
// Containers have no closing token: `a` skips their contents. An object's
// contents are key, value, key, value... Strings are unescaped, valid UTF-8.
#ifndef CJSONTAPE_H
#define CJSONTAPE_H

#include <yajl/yajl_parse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Token kinds.
enum {
    SJ_NULL = 0, SJ_FALSE = 1, SJ_TRUE = 2, SJ_NUMBER = 3,
    SJ_STRING = 4, SJ_KEY = 5, SJ_ARRAY = 6, SJ_OBJECT = 7,
    /// Stands for an element that passed maxElementBytes: it was parsed but
    /// not recorded. Its position is the element's first byte.
    SJ_OVERSIZED = 8,
    /// SJ_MODE_ROOTS and SJ_MODE_EVENTS: an element of one token that says
    /// what comes next (a = SJ_MARK_*, b = keys of the path followed).
    SJ_MARK = 9
};

/// What is streamed.
enum {
    /// The root value. A root array is the target (its elements are
    /// streamed); any other root value is one element.
    SJ_MODE_DOCUMENT = 0,
    /// The elements of the array at the path (root when the path is empty).
    SJ_MODE_ARRAY = 1,
    /// Every top-level value (JSON Lines, concatenated JSON).
    SJ_MODE_LINES = 2,
    /// The members of the object at the path: each element is a key token
    /// followed by its value.
    SJ_MODE_MEMBERS = 3,
    /// Every top-level value, each followed along the path to its target: a
    /// target array's elements or a target object's members are streamed,
    /// anything else met on the way is one element; SJ_MARK elements say which.
    SJ_MODE_ROOTS = 4,
    /// Every token an element of its own (jq's --stream): a scalar, a key, a
    /// container's opening (a and b 0), and an SJ_MARK_END element when it
    /// closes. Nothing is held back: memory is bounded by the nesting depth.
    SJ_MODE_EVENTS = 5
};

/// What an SJ_MARK element announces.
enum {
    SJ_MARK_ARRAY = 1,    // the target is an array: its elements follow, then SJ_MARK_END
    SJ_MARK_OBJECT = 2,   // the target is an object: its members follow, then SJ_MARK_END
    SJ_MARK_END = 3,      // the target (or, in SJ_MODE_EVENTS, a container) closed
    SJ_MARK_WHOLE = 4,    // the next element is the value reached after b keys (b < pathCount:
                          // not an object, so the path stops there)
    SJ_MARK_MISSING = 5,  // the object reached after b keys has no member path[b]
    SJ_MARK_ROOT_END = 6  // the top-level value ends here (its position: the value's first byte;
                          // keys: 1 when a key along the path was repeated in it)
};

/// Why the recorder stopped the parse (yajl then reports "client cancelled").
enum {
    SJ_OK = 0,
    SJ_ERROR_DEPTH = 1,            // nesting deeper than maxDepth
    SJ_ERROR_NUMBER_LENGTH = 2,    // number literal longer than maxNumberLength
    SJ_ERROR_STRING_LENGTH = 3,    // string or key longer than maxStringLength
    // 4 is unused: an element over maxElementBytes leaves an SJ_OVERSIZED marker instead
    SJ_ERROR_NOT_ARRAY = 5,        // the target is not an array (object for MEMBERS)
    SJ_ERROR_PATH_NOT_OBJECT = 6,  // a value on the key path is not an object
    SJ_ERROR_MEMORY = 7,           // allocation failed
    SJ_ERROR_TOO_LARGE = 8,        // an element needs more than 4 G tokens or arena bytes
    SJ_ERROR_COMMENT_LENGTH = 9,   // a comment longer than maxStringLength
    SJ_ERROR_SURROGATE = 10,       // a \u escape of an unpaired UTF-16 surrogate
    SJ_ERROR_UTF8 = 11             // a UTF-8 form yajl lets through: overlong, surrogate, past U+10FFFF
};

/// Why a UTF-8 form was refused (sj_checks.utf8Bad, with SJ_ERROR_UTF8).
enum { SJ_UTF8_OVERLONG = 1, SJ_UTF8_SURROGATE = 2, SJ_UTF8_PAST_MAX = 3 };

#define SJ_NO_POSITION UINT64_MAX
/// errorKind of a length error raised on a token still open: its position
/// is the token's first byte, not the end of a whole string.
#define SJ_KIND_OPEN_TOKEN 255
#define SJ_NO_TOKEN UINT32_MAX
#define SJ_POSITION_MASK 0x00FFFFFFFFFFFFFFull

typedef struct sj_token {
    uint64_t word;
    uint32_t a;
    uint32_t b;
} sj_token;

typedef struct sj_element {
    uint32_t token;   // index of the element's first token
    uint32_t arena;   // arena offset where its bytes start
    uint64_t end;     // absolute offset just past its last byte in the input
} sj_element;

typedef struct sj_frame {
    uint32_t token;   // the container's token, or SJ_NO_TOKEN when not recorded
    uint32_t count;   // values begun inside it so far
} sj_frame;

/// The recorded tokens: complete elements, then the element in progress.
typedef struct sj_tape {
    sj_token *tokens;
    size_t tokenCount, tokenCapacity;
    unsigned char *arena;
    size_t arenaCount, arenaCapacity;
    sj_element *elements;
    size_t elementCount, elementCapacity;
    sj_element current;              // start of the element in progress
    sj_element completeEnd;          // end of the last complete element
    uint64_t currentPosition;        // the element in progress's first byte
    uint64_t completedElements;      // elements completed since the start
} sj_tape;

/// Which values are recorded: those inside the target, at depth >=
/// frameDepth; the rest is parsed for validity and skipped.
typedef struct sj_framing {
    sj_frame *frames;
    size_t depth, frameCapacity;
    int mode;
    size_t frameDepth;
    int inTarget, targetDone;
    // SJ_MODE_ROOTS: `mode` is ARRAY or MEMBERS inside a target and ROOTS
    // elsewhere; wholeTarget is set while a value is recorded whole.
    int followsRoots, wholeTarget;
    // SJ_MODE_EVENTS: every token goes through the callbacks' general paths.
    int recordsEvents;
    // The element in progress passed maxElementBytes: parse it, record nothing.
    int skipping;
    // Key path: pathDepth objects along it are open; `expect` says the next
    // value begun is the one the path leads to so far.
    const unsigned char *const *pathKeys;
    const size_t *pathLengths;
    size_t pathCount, pathDepth;
    int expect;
    // SJ_MODE_ROOTS: where the top-level value in progress starts. Any mode
    // with a path: which of the open path objects (bit per level, the first
    // 64) met their path key; whether one met it twice (jq keeps the last
    // value of a repeated key; in SJ_MODE_ROOTS, for the top-level value).
    uint64_t rootStart, pathKeysMet;
    int repeatedPathKey;
} sj_framing;

/// Members kept of elements that are objects (sj_parser_project).
typedef struct sj_projection {
    const unsigned char *const *memberKeys;
    const size_t *memberLengths;
    size_t memberCount;
    uint64_t memberBits;             // one bit per listed key (length, first byte)
    int projecting;
    int skipMember;                  // a member left out is being parsed
    size_t memberDepth;              // the depth of its key
} sj_projection;

/// The bytes yajl is parsing.
typedef struct sj_input {
    uint64_t chunkBase;              // absolute offset of chunk[0]
    const unsigned char *chunk;
    size_t chunkLength;
    // The bytes of the last yajl_parse call (the chunk, or a long token's
    // bytes held back), for locating its errors.
    const unsigned char *fed;
    size_t fedLength;
    uint64_t fedBase;
} sj_input;

typedef struct sj_limits {
    size_t maxDepth, maxNumberLength, maxStringLength;
    uint64_t maxElementBytes;        // 0: no limit
} sj_limits;

/// A token that goes on past the end of a chunk: it begins at pendingStart
/// (SJ_NO_POSITION: none), its bytes wait in `held` until it ends.
typedef struct sj_pending {
    uint64_t resumeFrom;             // the end of the last token held back
    uint64_t pendingStart;
    unsigned char pendingKind;       // its first byte ('0' for any number)
    unsigned char pendingState, pendingStar;  // a string's backslash, a comment's state
    unsigned char *held;
    size_t heldCount, heldCapacity;
    uint64_t heldBase;
} sj_pending;

/// The checks yajl lacks, followed across chunks: \u surrogate escapes and
/// strict UTF-8.
typedef struct sj_checks {
    unsigned char escState, escDigits;
    unsigned int escUnit;            // the code unit(s) read so far
    uint64_t escStart;               // the escape's backslash
    unsigned char utf8Lead;          // a lead byte that ended the last chunk
    unsigned char utf8Bad;           // SJ_UTF8_*, for the message
} sj_checks;

/// Where things went wrong, and what Swift needs to say where.
typedef struct sj_location {
    int error;                       // SJ_ERROR_*, or SJ_OK
    uint64_t errorPosition;
    int errorKind;                   // the value found, for the target/path errors
    // Just past the last token handed to a callback (or where a restarted
    // handle began): a token boundary, from which Swift lexes forward to the
    // token yajl rejects. After a key or a value inside a container
    // (boundarySeparated), a ',' or ':' may precede the rejected token.
    uint64_t boundary;
    int boundarySeparated;
    int restarted;
    // The first byte of the token after the boundary, as found at the end
    // of the chunk it began in (SJ_NO_POSITION: not known).
    uint64_t notedStart;
} sj_location;

typedef struct sj_parser {
    yajl_handle yajl;
    sj_tape tape;
    sj_framing framing;
    sj_projection projection;
    sj_input input;
    sj_limits limits;
    sj_pending pending;
    sj_checks checks;
    sj_location location;
} sj_parser;

// MARK: - Life cycle

/// A zeroed parser on cache lines of its own (it is written on every token,
/// often while another thread allocates), set up for `mode`, with no yajl
/// handle yet. The path's key bytes must outlive it. NULL when out of memory.
sj_parser *sj_parser_create(int mode, const unsigned char *const *pathKeys,
                            const size_t *pathLengths, size_t pathCount);

/// Frees the parser, its handle and its buffers.
void sj_parser_destroy(sj_parser *p);

/// Gives the parser a yajl handle whose callbacks record into it (the
/// options are set by the caller). Returns it, or NULL when out of memory.
yajl_handle sj_parser_open(sj_parser *p);

/// Keeps only the listed members of elements that are objects; the others
/// are parsed, not recorded. The key bytes must outlive the parser.
void sj_parser_project(sj_parser *p, const unsigned char *const *keys,
                       const size_t *lengths, size_t count);

/// Forgets the element in progress and opens a new yajl handle (JSON Lines
/// resynchronising after a syntax error). Complete elements stay.
void sj_parser_restart(sj_parser *p);

/// Forgets the element in progress and opens a new yajl handle standing
/// inside the target array: an array resuming at its next element after a
/// syntax error. The handle is fed `opening` (`[`, or the key path's objects
/// and `[`, as `{"items":[`) as if it ended at `base + length`; following
/// roots, the mark that makes is taken back. Complete elements and their
/// count stay. (SJ_MODE_ARRAY, and SJ_MODE_ROOTS inside a target array.)
yajl_status sj_parser_reenter(sj_parser *p, const unsigned char *opening, size_t length, uint64_t base,
                              int allowsComments);

// MARK: - Feeding

/// Parses one chunk that starts at absolute offset `base`.
yajl_status sj_parser_parse(sj_parser *p, const unsigned char *bytes, size_t length, uint64_t base);

/// Hands yajl the bytes of a long token held back, so that an error in them
/// is reported before one found after them.
yajl_status sj_parser_flush_held(sj_parser *p);

/// Ends the input, which is `end` bytes long.
yajl_status sj_parser_complete(sj_parser *p, uint64_t end);

// MARK: - Batches

/// Drops the first `count` complete elements, moving what follows them to
/// the front. Returns the number of tokens dropped.
size_t sj_parser_drop_elements(sj_parser *p, size_t count);

/// Moves the complete elements of `from` to the end of `to`, a tape that
/// holds only complete elements. Returns 0 when memory runs out.
int sj_parser_move_complete(sj_parser *from, sj_parser *to);

// MARK: - The encoder's strings

/// What `sj_write_escaped` escapes besides `"`, `\` and control characters.
enum {
    SJ_ESCAPE_SLASHES = 1,  ///< `/` as `\/` (Foundation's default)
    SJ_ESCAPE_DEL = 2,      ///< DEL as `\u007f` (jq)
};

/// Writes `source[0..<length]` escaped as Foundation's JSONEncoder escapes
/// it (no quotes; `\/` with SJ_ESCAPE_SLASHES in `flags`; DEL as `\u007f`
/// with SJ_ESCAPE_DEL, as jq writes it) and returns the bytes written. `to`
/// needs room for `6 * length + 16` bytes. Reads nothing past the source.
size_t sj_write_escaped(unsigned char *to, const unsigned char *source, size_t length, int flags);

// MARK: - Copying input text (verbatim.c)

/// Whether the object at `tokens[object]` has no key twice; 0 also when it
/// cannot tell (memory runs out, or keys crowd its hash table): the caller
/// then builds the object, which keeps one value of each key.
int sj_object_keys_distinct(const sj_token *tokens, const unsigned char *arena, size_t object);

/// Whether jq writes a number literal otherwise than its text: it has an
/// exponent, or more than six zeros after the point.
int sj_number_not_canonical(const unsigned char *text, size_t length);

/// The length of jq's compact writing of the value at `tokens[index]`,
/// escapes aside; -1 when its input text cannot stand for that writing
/// whatever its length: a number jq writes otherwise (an exponent, more
/// than six zeros after the point), an object with a repeated key, a token
/// that is not a complete value.
int64_t sj_verbatim_length(const sj_token *tokens, const unsigned char *arena, size_t index);

// MARK: - Numbers

/// The double nearest to `digits` × 10^`exponent10` (ties to even), negated
/// when `negative`, into `result`; false when this fast method cannot decide
/// (an exact tie at its precision, subnormals, overflow, an exponent past
/// ±348), for the caller's exact parser. `digits` holds at most 19 decimal digits.
bool sj_decimal_to_double(uint64_t digits, int64_t exponent10, bool negative, double *result);

// MARK: - Cut points

/// Where a cut-point scan stands, carried from one call to the next. Start
/// from all zeros at the input's first byte.
///
/// The scan follows JSON's strings without parsing anything else: an
/// unescaped backslash escapes the next byte (inside strings or out), an
/// escaped byte does nothing but count as a LF when it is one, an unescaped
/// quote opens or closes a string, and [ { ] } outside strings move the depth.
/// Malformed input is scanned by the same rules (the depth may go negative).
typedef struct sj_cut_scan {
    int64_t depth;       ///< [ and { minus ] and } seen outside strings
    uint64_t in_string;  ///< 1 when the position is inside a string
    uint64_t escaped;    ///< 1 when the next byte is escaped by a backslash
    uint64_t newlines;   ///< LF bytes scanned so far (outside and inside strings)
    /// The depth below which the scan stops: 1 for the elements of one
    /// array (the scan stops at its closing bracket), INT64_MIN for none.
    int64_t floor;
    /// 1 once a closing bracket took the depth below `floor`: the scan then
    /// stands just after it, and finds nothing more.
    uint64_t closed;
} sj_cut_scan;

/// Updates `scan` over all of `bytes[0..<length)`, or up to the closing
/// bracket that sets `closed`.
void sj_cut_scan_advance(sj_cut_scan *scan, const uint8_t *bytes, size_t length);

/// Scans `bytes` from `scan`'s state and stops just after the first byte equal
/// to `separator` that is outside strings while the depth equals `depth`.
/// Returns the number of bytes consumed (the separator's offset + 1), `scan`
/// then describing the position after the separator; or `length` when there is
/// none, `scan` then describing the end of the bytes. A closing bracket that
/// takes the depth below `floor` first stops it there instead (`closed`, the
/// bracket's offset + 1 returned). A splitter cuts a root
/// array's elements with ',' at depth 1, and JSON Lines or concatenated JSON
/// with '\n' at depth 0. `separator` is none of `"` `\\` `[` `]` `{` `}`.
/// Reads nothing past `bytes + length`; 64 bytes at a time (SIMD).
size_t sj_cut_scan_find(sj_cut_scan *scan, const uint8_t *bytes, size_t length,
                        uint8_t separator, int64_t depth);

/// What a scan of one byte range found, for each of the two states a range
/// can start in when the bytes before it are not known: outside a string
/// (index 0) or inside one (index 1). Start from all zeros at the range's
/// first byte, with nothing escaped there (see `JSONPiece`'s scan for how a
/// range that starts escaped is told). Depths are counted from the range's
/// start.
typedef struct sj_cut_tally {
    int64_t depth[2];       ///< [ and { minus ] and } outside strings so far
    int64_t lowest[2];      ///< the lowest depth reached after any byte (≤ 0)
    uint64_t at_lowest[2];  ///< separators outside strings at `lowest`, since it was reached
    uint64_t in_string;     ///< 1 when, starting outside a string, the position is inside one
    uint64_t escaped;       ///< 1 when the next byte is escaped by a backslash
    uint64_t newlines;      ///< LF bytes tallied
    uint64_t last_newline;  ///< offset + 1 of the last LF tallied (0: none)
    uint64_t tallied;       ///< bytes tallied so far
} sj_cut_tally;

/// Tallies `bytes[0..<length)`, the next bytes of the range, by the rules of
/// the cut-point scan. `separator` is as for `sj_cut_scan_find`.
void sj_cut_scan_tally(sj_cut_tally *tally, const uint8_t *bytes, size_t length, uint8_t separator);

// MARK: - The array at a key path

/// A search for where the array at a key path begins (`path_locate.c`).
typedef struct sj_path_locator sj_path_locator;

enum {
    SJ_LOCATE_MORE = 0,   ///< not found yet: feed the bytes that follow
    SJ_LOCATE_FOUND = 1,  ///< found: the bytes consumed end with the array's `[`
    SJ_LOCATE_NONE = 2,   ///< the path leads to no array, first time down it
    /// found an object (`sj_path_locator_accept_objects`): the bytes consumed end with its `{`
    SJ_LOCATE_FOUND_OBJECT = 3,
};

/// A search for the array at the path of `count` (at least one) keys, whose
/// bytes must outlive it; yajl as the parser is set up (`allowsComments`).
/// NULL when out of memory or `count` is 0.
sj_path_locator *sj_path_locator_create(const unsigned char *const *keys, const size_t *lengths,
                                        size_t count, int allowsComments);

/// Parses the next bytes of the input. On SJ_LOCATE_FOUND, `*consumed` is
/// the number of this call's bytes up to and including the array's `[`.
/// Once it returns anything but SJ_LOCATE_MORE it returns that again.
int sj_path_locator_feed(sj_path_locator *locator, const uint8_t *bytes, size_t length, size_t *consumed);

/// Makes the search stop at an object at the path too (before any feed).
void sj_path_locator_accept_objects(sj_path_locator *locator);

void sj_path_locator_free(sj_path_locator *locator);

#endif
