import Foundation

/// A typed tweet from the search API, as in nativejson-benchmark's
/// twitter.json (Tests/Fixtures/nativejson): the fields an application would
/// read, with the ones that are sometimes null or absent as optionals. Keys the
/// model leaves out (profile colours, `id_str` copies, ...) are skipped by the
/// decoders, as they would be in an application.
struct Status: Codable, Sendable {
    struct Metadata: Codable, Sendable {
        var resultType: String
        var isoLanguageCode: String

        enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
    }

    struct User: Codable, Sendable {
        struct Entities: Codable, Sendable {
            struct URLs: Codable, Sendable {
                var urls: [URLEntity]
            }

            var url: URLs?
            var description: URLs?
        }

        var id: Int
        var idStr: String
        var name: String
        var screenName: String
        var location: String
        var description: String
        var url: String?
        var entities: Entities
        var protected: Bool
        var followersCount: Int
        var friendsCount: Int
        var listedCount: Int
        var createdAt: String
        var favouritesCount: Int
        var utcOffset: Int?
        var timeZone: String?
        var geoEnabled: Bool
        var verified: Bool
        var statusesCount: Int
        var lang: String
        var profileImageURLHTTPS: String
        var profileBannerURL: String?
        var defaultProfile: Bool
        var following: Bool

        enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case name
            case screenName = "screen_name"
            case location, description, url, entities, protected
            case followersCount = "followers_count"
            case friendsCount = "friends_count"
            case listedCount = "listed_count"
            case createdAt = "created_at"
            case favouritesCount = "favourites_count"
            case utcOffset = "utc_offset"
            case timeZone = "time_zone"
            case geoEnabled = "geo_enabled"
            case verified
            case statusesCount = "statuses_count"
            case lang
            case profileImageURLHTTPS = "profile_image_url_https"
            case profileBannerURL = "profile_banner_url"
            case defaultProfile = "default_profile"
            case following
        }
    }

    struct Hashtag: Codable, Sendable {
        var text: String
        var indices: [Int]
    }

    struct URLEntity: Codable, Sendable {
        var url: String
        var expandedURL: String
        var displayURL: String
        var indices: [Int]

        enum CodingKeys: String, CodingKey {
            case url
            case expandedURL = "expanded_url"
            case displayURL = "display_url"
            case indices
        }
    }

    struct Mention: Codable, Sendable {
        var screenName: String
        var name: String
        var id: Int
        var indices: [Int]

        enum CodingKeys: String, CodingKey {
            case screenName = "screen_name"
            case name, id, indices
        }
    }

    struct Media: Codable, Sendable {
        struct Size: Codable, Sendable {
            var w: Int
            var h: Int
            var resize: String
        }

        var id: Int
        var mediaURLHTTPS: String
        var url: String
        var displayURL: String
        var expandedURL: String
        var type: String
        var sizes: [String: Size]
        var indices: [Int]
        var sourceStatusID: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case mediaURLHTTPS = "media_url_https"
            case url
            case displayURL = "display_url"
            case expandedURL = "expanded_url"
            case type, sizes, indices
            case sourceStatusID = "source_status_id"
        }
    }

    struct Entities: Codable, Sendable {
        var hashtags: [Hashtag]
        var symbols: [Hashtag]
        var urls: [URLEntity]
        var userMentions: [Mention]
        var media: [Media]?

        enum CodingKeys: String, CodingKey {
            case hashtags, symbols, urls
            case userMentions = "user_mentions"
            case media
        }
    }

    /// The retweeted status is a whole status of its own; a class breaks the
    /// recursion of the struct.
    final class Retweeted: Codable, Sendable {
        let status: Status

        init(from decoder: any Decoder) throws { status = try Status(from: decoder) }
        func encode(to encoder: any Encoder) throws { try status.encode(to: encoder) }
    }

    var metadata: Metadata
    var createdAt: String
    var id: Int
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: Int?
    var inReplyToUserID: Int?
    var inReplyToScreenName: String?
    var user: User
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var lang: String
    var retweetedStatus: Retweeted?

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id, text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities, favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
        case retweetedStatus = "retweeted_status"
    }
}
