// SPDX-License-Identifier: Apache-2.0
import Foundation

// GitHub events as `scripts/generate-shapes.py --shape github` writes them
// (the GH Archive layout), modelled the way an app would: synthesized Codable,
// snake_case keys spelled in CodingKeys, the event type a String enum, one
// payload struct whose fields are optional because each event type fills
// other ones, URLs and Dates (`.iso8601`, with milliseconds). The Benchmarks
// package compiles this file too (a symbolic link there).

struct GitHubEvent: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        case push = "PushEvent"
        case create = "CreateEvent"
        case watch = "WatchEvent"
        case fork = "ForkEvent"
        case issues = "IssuesEvent"
        case issueComment = "IssueCommentEvent"
        case pullRequest = "PullRequestEvent"
    }

    var id: EventID
    var type: Kind
    var actor: Actor
    var repo: Repo
    var payload: Payload
    var isPublic: Bool
    var createdAt: Date
    var org: Actor?

    enum CodingKeys: String, CodingKey {
        case id, type, actor, repo, payload
        case isPublic = "public"
        case createdAt = "created_at"
        case org
    }
}

/// An event id: a number in most events, a string of digits in others (as
/// the API writes it), over the whole UInt64 range either way.
struct EventID: Codable, Sendable, Hashable {
    var value: UInt64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            value = number
            return
        }
        let text = try container.decode(String.self)
        guard let number = UInt64(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not an event id: \(text)")
        }
        value = number
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension GitHubEvent {
    struct Actor: Codable, Sendable {
        var id: Int
        var login: String
        var gravatarID: String
        var url: URL
        var avatarURL: URL

        enum CodingKeys: String, CodingKey {
            case id, login
            case gravatarID = "gravatar_id"
            case url
            case avatarURL = "avatar_url"
        }
    }

    struct Repo: Codable, Sendable {
        var id: Int
        var name: String
        var url: URL
    }

    struct User: Codable, Sendable {
        var login: String
        var id: Int
        var avatarURL: URL
        var url: URL
        var htmlURL: URL
        var type: String
        var siteAdmin: Bool
        var name: String?

        enum CodingKeys: String, CodingKey {
            case login, id
            case avatarURL = "avatar_url"
            case url
            case htmlURL = "html_url"
            case type
            case siteAdmin = "site_admin"
            case name
        }
    }

    /// The fields of every event type's payload; each type sets its own.
    struct Payload: Codable, Sendable {
        var action: String?
        // PushEvent
        var pushID: UInt64?
        var size: Int?
        var distinctSize: Int?
        var ref: String?
        var head: String?
        var before: String?
        var commits: [Commit]?
        // CreateEvent
        var refType: String?
        var masterBranch: String?
        var description: String?
        var pusherType: String?
        // ForkEvent
        var forkee: Forkee?
        // IssuesEvent, IssueCommentEvent, PullRequestEvent
        var issue: Issue?
        var comment: Comment?
        var number: Int?
        var pullRequest: PullRequest?

        enum CodingKeys: String, CodingKey {
            case action
            case pushID = "push_id"
            case size
            case distinctSize = "distinct_size"
            case ref, head, before, commits
            case refType = "ref_type"
            case masterBranch = "master_branch"
            case description
            case pusherType = "pusher_type"
            case forkee, issue, comment, number
            case pullRequest = "pull_request"
        }
    }

    struct Commit: Codable, Sendable {
        struct Author: Codable, Sendable {
            var email: String
            var name: String
        }

        var sha: String
        var author: Author
        var message: String
        var distinct: Bool
        var url: URL
    }

    struct Forkee: Codable, Sendable {
        var id: Int
        var name: String
        var fullName: String
        var owner: User
        var isPrivate: Bool
        var htmlURL: URL
        var description: String?
        var fork: Bool
        var createdAt: Date
        var stargazersCount: Int
        var language: String?

        enum CodingKeys: String, CodingKey {
            case id, name
            case fullName = "full_name"
            case owner
            case isPrivate = "private"
            case htmlURL = "html_url"
            case description, fork
            case createdAt = "created_at"
            case stargazersCount = "stargazers_count"
            case language
        }
    }

    struct Label: Codable, Sendable {
        var name: String
        var color: String
        var `default`: Bool
    }

    enum State: String, Codable, Sendable {
        case open, closed
    }

    struct Issue: Codable, Sendable {
        var url: URL
        var htmlURL: URL
        var id: UInt64
        var number: Int
        var title: String
        var user: User
        var labels: [Label]
        var state: State
        var locked: Bool
        var assignee: User?
        var comments: Int
        var createdAt: Date
        var updatedAt: Date
        var closedAt: Date?
        var body: String?

        enum CodingKeys: String, CodingKey {
            case url
            case htmlURL = "html_url"
            case id, number, title, user, labels, state, locked, assignee, comments
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case closedAt = "closed_at"
            case body
        }
    }

    struct Comment: Codable, Sendable {
        var url: URL
        var htmlURL: URL
        var id: UInt64
        var user: User
        var createdAt: Date
        var updatedAt: Date
        var body: String

        enum CodingKeys: String, CodingKey {
            case url
            case htmlURL = "html_url"
            case id, user
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case body
        }
    }

    struct PullRequest: Codable, Sendable {
        struct Branch: Codable, Sendable {
            var label: String
            var ref: String
            var sha: String
        }

        var url: URL
        var htmlURL: URL
        var id: UInt64
        var number: Int
        var title: String
        var user: User
        var labels: [Label]
        var state: State
        var locked: Bool
        var assignee: User?
        var comments: Int
        var createdAt: Date
        var updatedAt: Date
        var closedAt: Date?
        var mergedAt: Date?
        var body: String?
        var mergeCommitSHA: String?
        var head: Branch
        var base: Branch
        var draft: Bool?
        var merged: Bool
        var commits: Int
        var additions: Int
        var deletions: Int
        var changedFiles: Int

        enum CodingKeys: String, CodingKey {
            case url
            case htmlURL = "html_url"
            case id, number, title, user, labels, state, locked, assignee, comments
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case closedAt = "closed_at"
            case mergedAt = "merged_at"
            case body
            case mergeCommitSHA = "merge_commit_sha"
            case head, base, draft, merged, commits, additions, deletions
            case changedFiles = "changed_files"
        }
    }
}
