// SPDX-License-Identifier: Apache-2.0
import Foundation

// Typed model of twitter.json (Tests/Fixtures/nativejson), shared by
// streamingjson-bench and the Benchmarks package (a symbolic link there: an
// executable target cannot be imported). Keys are spelled out in CodingKeys (no
// key strategy), so every decoder does the same work. A field that is null or
// missing in some objects is Optional.

struct Twitter: Codable, Sendable {
    var statuses: [Status]
    var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

struct SearchMetadata: Codable, Sendable {
    var completedIn: Double
    var maxID: UInt64
    var maxIDString: String
    var nextResults: String
    var query: String
    var refreshURL: String
    var count: Int
    var sinceID: UInt64
    var sinceIDString: String

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case maxIDString = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshURL = "refresh_url"
        case count
        case sinceID = "since_id"
        case sinceIDString = "since_id_str"
    }
}

/// Holds a value of a recursive type (a status quoting a status).
final class Indirect<Value: Codable & Sendable>: Codable, Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

struct Status: Codable, Sendable {
    struct Metadata: Codable, Sendable {
        var resultType: String
        var isoLanguageCode: String

        enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
    }

    var metadata: Metadata
    var createdAt: String
    var id: UInt64
    var idString: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: UInt64?
    var inReplyToStatusIDString: String?
    var inReplyToUserID: UInt64?
    var inReplyToUserIDString: String?
    var inReplyToScreenName: String?
    var user: User
    var geo: JSONPlaceholder?
    var coordinates: JSONPlaceholder?
    var place: JSONPlaceholder?
    var contributors: JSONPlaceholder?
    var retweetedStatus: Indirect<Status>?
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var lang: String

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idString = "id_str"
        case text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToStatusIDString = "in_reply_to_status_id_str"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToUserIDString = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, geo, coordinates, place, contributors
        case retweetedStatus = "retweeted_status"
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities, favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }
}

/// Fields that are always null in this file (geo, place, contributors, …):
/// an empty object if one ever turns up.
struct JSONPlaceholder: Codable, Sendable {}

struct User: Codable, Sendable {
    struct UserEntities: Codable, Sendable {
        struct URLs: Codable, Sendable {
            var urls: [URLEntity]
        }
        var url: URLs?
        var description: URLs
    }

    var id: UInt64
    var idString: String
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: String?
    var entities: UserEntities
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
    var contributorsEnabled: Bool
    var isTranslator: Bool
    var isTranslationEnabled: Bool
    var profileBackgroundColor: String
    var profileBackgroundImageURL: String
    var profileBackgroundImageURLHTTPS: String
    var profileBackgroundTile: Bool
    var profileImageURL: String
    var profileImageURLHTTPS: String
    var profileBannerURL: String?
    var profileLinkColor: String
    var profileSidebarBorderColor: String
    var profileSidebarFillColor: String
    var profileTextColor: String
    var profileUseBackgroundImage: Bool
    var defaultProfile: Bool
    var defaultProfileImage: Bool
    var following: Bool
    var followRequestSent: Bool
    var notifications: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
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
        case contributorsEnabled = "contributors_enabled"
        case isTranslator = "is_translator"
        case isTranslationEnabled = "is_translation_enabled"
        case profileBackgroundColor = "profile_background_color"
        case profileBackgroundImageURL = "profile_background_image_url"
        case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
        case profileBackgroundTile = "profile_background_tile"
        case profileImageURL = "profile_image_url"
        case profileImageURLHTTPS = "profile_image_url_https"
        case profileBannerURL = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
        case profileSidebarBorderColor = "profile_sidebar_border_color"
        case profileSidebarFillColor = "profile_sidebar_fill_color"
        case profileTextColor = "profile_text_color"
        case profileUseBackgroundImage = "profile_use_background_image"
        case defaultProfile = "default_profile"
        case defaultProfileImage = "default_profile_image"
        case following
        case followRequestSent = "follow_request_sent"
        case notifications
    }
}

struct Entities: Codable, Sendable {
    struct Hashtag: Codable, Sendable {
        var text: String
        var indices: [Int]
    }

    struct Symbol: Codable, Sendable {
        var text: String
        var indices: [Int]
    }

    struct UserMention: Codable, Sendable {
        var screenName: String
        var name: String
        var id: UInt64
        var idString: String
        var indices: [Int]

        enum CodingKeys: String, CodingKey {
            case screenName = "screen_name"
            case name, id
            case idString = "id_str"
            case indices
        }
    }

    var hashtags: [Hashtag]
    var symbols: [Symbol]
    var urls: [URLEntity]
    var userMentions: [UserMention]
    var media: [Media]?

    enum CodingKeys: String, CodingKey {
        case hashtags, symbols, urls
        case userMentions = "user_mentions"
        case media
    }
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

struct Media: Codable, Sendable {
    struct Size: Codable, Sendable {
        var w: Int
        var h: Int
        var resize: String
    }

    struct Sizes: Codable, Sendable {
        var medium: Size
        var small: Size
        var thumb: Size
        var large: Size
    }

    var id: UInt64
    var idString: String
    var indices: [Int]
    var mediaURL: String
    var mediaURLHTTPS: String
    var url: String
    var displayURL: String
    var expandedURL: String
    var type: String
    var sizes: Sizes
    var sourceStatusID: UInt64?
    var sourceStatusIDString: String?

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case indices
        case mediaURL = "media_url"
        case mediaURLHTTPS = "media_url_https"
        case url
        case displayURL = "display_url"
        case expandedURL = "expanded_url"
        case type, sizes
        case sourceStatusID = "source_status_id"
        case sourceStatusIDString = "source_status_id_str"
    }
}
