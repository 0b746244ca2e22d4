// SPDX-License-Identifier: Apache-2.0

/// The release, in one place: `jsonstream --version`, the `.deb`
/// (scripts/package-deb reads it from `--version`) and the top heading of
/// CHANGELOG.md (checked by a test) all name it.
package let jsonStreamVersionNumber = "0.1.0"

/// `jsonstream --version`.
package let jsonStreamVersion = "jsonstream \(jsonStreamVersionNumber) (jq 1.8 filter language)"
