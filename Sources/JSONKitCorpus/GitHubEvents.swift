import Foundation

/// A model of `github_events.json` (GitHub's public event stream, January 2013) written as
/// an app would write it: camelCase properties and no coding keys, for
/// `.convertFromSnakeCase` and `.convertToSnakeCase`; `Date` for every timestamp, read
/// with `.iso8601`; `URL` for every link; `Int64` for ids; enums for closed sets of
/// strings; optionals for what some events leave out or set to `null`.
///
/// ```swift
/// let decoder = JSONDecoder()
/// GitHubEvents.configure(decoder)
/// let events = try decoder.decode([GitHubEvents.Event].self, from: bytes)
/// ```
///
/// What stays a `String` although its name ends in `_url`: GitHub's link templates
/// (`https://api.github.com/users/pat/gists{/gist_id}`, RFC 6570 templates that an app
/// expands before use, and that `URL(string:)` would percent-encode, changing their
/// text), the repository's `ssh_url` (`git@github.com:owner/repo.git`, scp syntax, not a
/// URL) and `homepage` (free text that is empty or `null` here). The event's own `id` is a
/// string of digits in the JSON, so it stays a `String`. Left out: the issue's
/// `milestone`, `null` in every event here, so its shape is not in the corpus.
public enum GitHubEvents {
  /// How keys are read: `.convertFromSnakeCase`.
  public static let keyDecodingStrategy = JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase
  /// How keys are written: `.convertToSnakeCase`.
  public static let keyEncodingStrategy = JSONEncoder.KeyEncodingStrategy.convertToSnakeCase
  /// How dates are read: `.iso8601` (`2013-01-10T07:58:30Z`).
  public static let dateDecodingStrategy = JSONDecoder.DateDecodingStrategy.iso8601
  /// How dates are written: `.iso8601`.
  public static let dateEncodingStrategy = JSONEncoder.DateEncodingStrategy.iso8601

  /// The four strategies above, as one value.
  public static let strategies = CodingStrategies(
    keyDecoding: keyDecodingStrategy, keyEncoding: keyEncodingStrategy,
    dateDecoding: dateDecodingStrategy, dateEncoding: dateEncodingStrategy)

  /// Sets `decoder`'s key and date strategies for these models.
  public static func configure(_ decoder: JSONDecoder) {
    strategies.configure(decoder)
  }

  /// Sets `encoder`'s key and date strategies for these models.
  public static func configure(_ encoder: JSONEncoder) {
    strategies.configure(encoder)
  }

  /// `github_events.json` from `directory` (see ``Corpus/dataDirectory()``), the events
  /// `JSONDecoder` reads from it, and ``strategies``; the sample is named `github-events`.
  ///
  /// - Throws: an error when the file cannot be read or does not decode.
  public static func sample(in directory: URL) throws -> CodableSample<[Event]> {
    let json = try Corpus.githubEvents.data(in: directory)
    let decoder = JSONDecoder()
    configure(decoder)
    let events = try decoder.decode([Event].self, from: json)
    return CodableSample(
      name: "github-events", count: events.count, json: json, value: events,
      strategies: strategies)
  }

  /// One event: something a user did in a repository.
  public struct Event: Codable, Equatable, Sendable {
    /// The event's id, a string of digits.
    public let id: String
    /// What kind of event this is, which says what ``payload`` holds.
    public let type: EventType
    /// The user who did it.
    public let actor: Account
    /// The repository it was done in.
    public let repo: RepositoryReference
    /// The organization that owns the repository, when one does.
    public let org: Account?
    /// Whether the event is public.
    public let `public`: Bool
    /// When it happened.
    public let createdAt: Date
    /// What happened; which fields are set depends on ``type``.
    public let payload: Payload
  }

  /// The kinds of event GitHub's API documented in 2013.
  public enum EventType: String, Codable, Sendable {
    /// A comment on a commit.
    case commitComment = "CommitCommentEvent"
    /// A branch, tag or repository created.
    case create = "CreateEvent"
    /// A branch or tag deleted.
    case delete = "DeleteEvent"
    /// A download created.
    case download = "DownloadEvent"
    /// A user followed.
    case follow = "FollowEvent"
    /// A repository forked.
    case fork = "ForkEvent"
    /// A fork's patch applied.
    case forkApply = "ForkApplyEvent"
    /// A gist created or updated.
    case gist = "GistEvent"
    /// Wiki pages created or edited.
    case gollum = "GollumEvent"
    /// A comment on an issue.
    case issueComment = "IssueCommentEvent"
    /// An issue opened, closed or reopened.
    case issues = "IssuesEvent"
    /// A collaborator added.
    case member = "MemberEvent"
    /// A repository made public.
    case `public` = "PublicEvent"
    /// A pull request opened, closed or synchronized.
    case pullRequest = "PullRequestEvent"
    /// A comment on a pull request's diff.
    case pullRequestReviewComment = "PullRequestReviewCommentEvent"
    /// Commits pushed.
    case push = "PushEvent"
    /// A user or repository added to a team.
    case teamAdd = "TeamAddEvent"
    /// A repository starred.
    case watch = "WatchEvent"
  }

  /// A user or organization as an event names it.
  public struct Account: Codable, Equatable, Sendable {
    /// The account's id.
    public let id: Int64
    /// The account's name.
    public let login: String
    /// The Gravatar hash of the account's e-mail address.
    public let gravatarId: String
    /// The account in the API.
    public let url: URL
    /// The account's picture.
    public let avatarUrl: URL
  }

  /// A repository as an event names it.
  public struct RepositoryReference: Codable, Equatable, Sendable {
    /// The repository's id.
    public let id: Int64
    /// `owner/name`.
    public let name: String
    /// The repository in the API.
    public let url: URL
  }

  /// What an event carries, by event type. Every field is optional, as an app that
  /// decodes every event type into one type writes it.
  public struct Payload: Codable, Equatable, Sendable {
    /// What was done: `started` (watch), `opened` or `closed` (issues), `created` (issue
    /// comment). An open set, so a string.
    public let action: String?
    /// The branch or tag pushed to or created (`refs/heads/main`, `main`); `null` when a
    /// repository was created.
    public let ref: String?
    /// What was created.
    public let refType: RefType?
    /// The default branch of a created repository.
    public let masterBranch: String?
    /// A created repository's description.
    public let description: String?
    /// The push's id.
    public let pushId: Int64?
    /// How many commits the push holds.
    public let size: Int?
    /// How many of them are new to the repository.
    public let distinctSize: Int?
    /// The commit the branch points to after the push.
    public let head: String?
    /// The commit it pointed to before.
    public let before: String?
    /// The commits pushed.
    public let commits: [Commit]?
    /// The repository a fork made.
    public let forkee: Repository?
    /// The issue opened, closed or commented on.
    public let issue: Issue?
    /// The comment made.
    public let comment: Comment?
    /// The wiki pages created or edited.
    public let pages: [WikiPage]?
  }

  /// What a create event created.
  public enum RefType: String, Codable, Sendable {
    /// A repository.
    case repository
    /// A branch.
    case branch
    /// A tag.
    case tag
  }

  /// A pushed commit.
  public struct Commit: Codable, Equatable, Sendable {
    /// The commit's hash.
    public let sha: String
    /// Who wrote it.
    public let author: CommitAuthor
    /// The commit message.
    public let message: String
    /// Whether the commit is new to the repository.
    public let distinct: Bool
    /// The commit in the API.
    public let url: URL
  }

  /// Who wrote a commit, as git records it.
  public struct CommitAuthor: Codable, Equatable, Sendable {
    /// The author's name.
    public let name: String
    /// The author's e-mail address.
    public let email: String
  }

  /// Whether an account is a person's or an organization's.
  public enum AccountType: String, Codable, Sendable {
    /// A person's account.
    case user = "User"
    /// An organization's account.
    case organization = "Organization"
  }

  /// A user as the API describes one in full: with the links to everything about them.
  public struct User: Codable, Equatable, Sendable {
    /// The user's id.
    public let id: Int64
    /// The user's name.
    public let login: String
    /// Whether this is a person or an organization.
    public let type: AccountType
    /// The Gravatar hash of the user's e-mail address.
    public let gravatarId: String
    /// The user's picture.
    public let avatarUrl: URL
    /// The user in the API.
    public let url: URL
    /// The user's followers.
    public let followersUrl: URL
    /// Whom the user follows.
    public let followingUrl: URL
    /// The user's gists: a link template (`…/gists{/gist_id}`).
    public let gistsUrl: String
    /// The repositories the user starred: a link template.
    public let starredUrl: String
    /// The repositories the user watches.
    public let subscriptionsUrl: URL
    /// The user's organizations.
    public let organizationsUrl: URL
    /// The user's repositories.
    public let reposUrl: URL
    /// The user's events: a link template (`…/events{/privacy}`).
    public let eventsUrl: String
    /// The events the user receives.
    public let receivedEventsUrl: URL
  }

  /// A repository as the API describes one in full.
  public struct Repository: Codable, Equatable, Sendable {
    /// The repository's id.
    public let id: Int64
    /// The repository's name.
    public let name: String
    /// `owner/name`.
    public let fullName: String
    /// Who owns it.
    public let owner: User
    /// Whether it is private.
    public let `private`: Bool
    /// Whether it is public.
    public let `public`: Bool
    /// Whether it is a fork.
    public let fork: Bool
    /// What it is about.
    public let description: String?
    /// Its web site: free text, empty or `null` in this corpus, so not a `URL`.
    public let homepage: String?
    /// Its main programming language.
    public let language: String?
    /// When it was created.
    public let createdAt: Date
    /// When it was last changed.
    public let updatedAt: Date
    /// When it was last pushed to.
    public let pushedAt: Date
    /// Its size in kilobytes.
    public let size: Int
    /// How many times it was forked.
    public let forks: Int
    /// The same, under its newer name.
    public let forksCount: Int
    /// How many users watch it.
    public let watchers: Int
    /// The same, under its newer name.
    public let watchersCount: Int
    /// How many issues are open.
    public let openIssues: Int
    /// The same, under its newer name.
    public let openIssuesCount: Int
    /// Whether it has issues.
    public let hasIssues: Bool
    /// Whether it has downloads.
    public let hasDownloads: Bool
    /// Whether it has a wiki.
    public let hasWiki: Bool
    /// The repository it mirrors, if any.
    public let mirrorUrl: URL?
    /// The repository on the web.
    public let htmlUrl: URL
    /// The repository in the API.
    public let url: URL
    /// Clone over HTTPS.
    public let cloneUrl: URL
    /// Clone over the git protocol (`git://…`).
    public let gitUrl: URL
    /// Clone over SSH, in scp syntax (`git@github.com:owner/name.git`): not a URL.
    public let sshUrl: String
    /// Check out with Subversion.
    public let svnUrl: URL
    /// Its forks.
    public let forksUrl: URL
    /// Its deploy keys: a link template.
    public let keysUrl: String
    /// Its collaborators: a link template.
    public let collaboratorsUrl: String
    /// Its teams.
    public let teamsUrl: URL
    /// Its hooks.
    public let hooksUrl: URL
    /// Its issues' events: a link template.
    public let issueEventsUrl: String
    /// Its events.
    public let eventsUrl: URL
    /// Its assignees: a link template.
    public let assigneesUrl: String
    /// Its branches: a link template.
    public let branchesUrl: String
    /// Its tags: a link template.
    public let tagsUrl: String
    /// Its blobs: a link template.
    public let blobsUrl: String
    /// Its git tags: a link template.
    public let gitTagsUrl: String
    /// Its git references: a link template.
    public let gitRefsUrl: String
    /// Its trees: a link template.
    public let treesUrl: String
    /// Its commit statuses: a link template.
    public let statusesUrl: String
    /// Its languages.
    public let languagesUrl: URL
    /// Who starred it.
    public let stargazersUrl: URL
    /// Who contributed to it.
    public let contributorsUrl: URL
    /// Who watches it.
    public let subscribersUrl: URL
    /// The authenticated user's subscription to it.
    public let subscriptionUrl: URL
    /// Its commits: a link template.
    public let commitsUrl: String
    /// Its git commits: a link template.
    public let gitCommitsUrl: String
    /// Its commit comments: a link template.
    public let commentsUrl: String
    /// Its issue comments: a link template.
    public let issueCommentUrl: String
    /// Its files: a link template.
    public let contentsUrl: String
    /// Comparisons of two commits: a link template.
    public let compareUrl: String
    /// Its merges.
    public let mergesUrl: URL
    /// Its archives: a link template.
    public let archiveUrl: String
    /// Its downloads.
    public let downloadsUrl: URL
    /// Its issues: a link template.
    public let issuesUrl: String
    /// Its pull requests: a link template.
    public let pullsUrl: String
    /// Its milestones: a link template.
    public let milestonesUrl: String
    /// Its notifications: a link template.
    public let notificationsUrl: String
    /// Its labels: a link template.
    public let labelsUrl: String
  }

  /// Whether an issue is open.
  public enum IssueState: String, Codable, Sendable {
    /// Open.
    case open
    /// Closed.
    case closed
  }

  /// An issue.
  public struct Issue: Codable, Equatable, Sendable {
    /// The issue's id.
    public let id: Int64
    /// Its number in the repository.
    public let number: Int
    /// Its title.
    public let title: String
    /// What it says, in Markdown.
    public let body: String?
    /// Who opened it.
    public let user: User
    /// Its labels (none in this corpus).
    public let labels: [Label]
    /// Whether it is open.
    public let state: IssueState
    /// Who it is assigned to.
    public let assignee: User?
    /// How many comments it has.
    public let comments: Int
    /// When it was opened.
    public let createdAt: Date
    /// When it was last changed.
    public let updatedAt: Date
    /// When it was closed.
    public let closedAt: Date?
    /// The pull request's links when the issue is one; all `null` otherwise.
    public let pullRequest: PullRequestLinks?
    /// The issue in the API.
    public let url: URL
    /// The issue on the web.
    public let htmlUrl: URL
    /// Its labels: a link template.
    public let labelsUrl: String
    /// Its comments.
    public let commentsUrl: URL
    /// Its events.
    public let eventsUrl: URL
  }

  /// An issue's label.
  public struct Label: Codable, Equatable, Sendable {
    /// The label's name.
    public let name: String
    /// Its colour, as six hex digits.
    public let color: String
    /// The label in the API.
    public let url: URL
  }

  /// Where a pull request's pages are, when an issue is a pull request.
  public struct PullRequestLinks: Codable, Equatable, Sendable {
    /// The pull request on the web.
    public let htmlUrl: URL?
    /// Its diff.
    public let diffUrl: URL?
    /// Its patch.
    public let patchUrl: URL?
  }

  /// A comment on an issue.
  public struct Comment: Codable, Equatable, Sendable {
    /// The comment's id.
    public let id: Int64
    /// What it says, in Markdown.
    public let body: String
    /// Who wrote it.
    public let user: User
    /// When it was written.
    public let createdAt: Date
    /// When it was last edited.
    public let updatedAt: Date
    /// The comment in the API.
    public let url: URL
    /// The issue it is on, in the API.
    public let issueUrl: URL
  }

  /// A wiki page created or edited.
  public struct WikiPage: Codable, Equatable, Sendable {
    /// The page's name in its link.
    public let pageName: String
    /// Its title.
    public let title: String
    /// The edit's summary.
    public let summary: String?
    /// What was done: `created` or `edited`.
    public let action: String
    /// The page's revision.
    public let sha: String
    /// The page on the web.
    public let htmlUrl: URL
  }
}
