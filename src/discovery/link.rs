//! What the probe records of a symlinked candidate: its link text, where it
//! resolves, and whether that lies inside the project root, outside it, or
//! in a place whose content is a secret (SPEC 7).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::probe::{classify, probe_error};
use super::{Absence, Probe};
use crate::settings::Settings;

/// What the probe saw of a candidate that is a symlink (SPEC 7): the link
/// text, where it resolves, and what that place is. Recorded once, so that
/// every message about the link agrees with what was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symlink {
    /// The link text, as `readlink` gives it.
    pub target: String,
    /// The real path it resolves to, when it resolves.
    pub resolved: Option<PathBuf>,
    pub place: Place,
    /// Whether it leaves the project root: by the resolved path when it
    /// resolves, else by its own text read from the link's directory (so a
    /// dangling link is judged too). None without a project root.
    pub outside_root: Option<bool>,
}

/// Where a symlinked candidate resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Nowhere (dangling), or the project root is unknown.
    Unknown,
    /// Inside the project root.
    Inside,
    /// Outside the project root, somewhere harmless.
    Outside,
    /// Into `/proc`, `/sys` or `/dev`: process or machine state.
    System,
    /// Under the home directory, outside the project (`~/.ssh`, `~/.aws`).
    Home,
    /// The system's secret files: [`SECRET_FILES`].
    Secrets,
    /// Inside a git directory (a path component `.git`): its config holds
    /// remotes and, in CI checkouts, the job's token.
    GitDir,
    /// A credentials directory or file anywhere: [`CREDENTIALS`].
    Credentials,
}

/// The system's secret files and directories (with everything below them).
pub const SECRET_FILES: [&str; 6] = [
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/run/secrets",
    "/var/run/secrets",
];

/// Names of credentials directories and files: a path with one of them as
/// a component is a secret, wherever it lies.
pub const CREDENTIALS: [&str; 5] = [".ssh", ".gnupg", ".aws", ".netrc", ".git-credentials"];

impl Place {
    /// Whether sessions would send a secret's content to the model.
    #[must_use]
    pub fn is_secret(self) -> bool {
        matches!(
            self,
            Place::System | Place::Home | Place::Secrets | Place::GitDir | Place::Credentials
        )
    }

    /// Its word in JSON (`place`): `system`, `home`, `secrets`, `git`,
    /// `credentials`; `inside`, `outside`, `unknown` for the others.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Place::Unknown => "unknown",
            Place::Inside => "inside",
            Place::Outside => "outside",
            Place::System => "system",
            Place::Home => "home",
            Place::Secrets => "secrets",
            Place::GitDir => "git",
            Place::Credentials => "credentials",
        }
    }

    /// The place named `name` ([`Place::name`]).
    #[must_use]
    pub fn from_name(name: &str) -> Place {
        [
            Place::Inside,
            Place::Outside,
            Place::System,
            Place::Home,
            Place::Secrets,
            Place::GitDir,
            Place::Credentials,
        ]
        .into_iter()
        .find(|p| p.name() == name)
        .unwrap_or(Place::Unknown)
    }

    /// Where a secret lies, for messages: `in /proc, /sys or /dev`, `in a
    /// git directory (.git)`; empty for a place that is no secret.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Place::System => "in /proc, /sys or /dev",
            Place::Home => "in the home directory, outside the project",
            Place::Secrets => {
                "in the system's secrets (/etc/shadow, /etc/gshadow, /run/secrets, /var/run/secrets)"
            }
            Place::GitDir => "in a git directory (.git)",
            Place::Credentials => {
                "in a credentials store (.ssh, .gnupg, .aws, .netrc, .git-credentials)"
            }
            Place::Unknown | Place::Inside | Place::Outside => "",
        }
    }
}

/// The one secret classifier: whether the real path `real` is a secret
/// that nothing may send to a model, whoever reads it (a dsh candidate's
/// symlink, a profile's file, config entry, glob or import). In order:
/// `/proc`, `/sys`, `/dev` ([`Place::System`]); [`SECRET_FILES`]
/// ([`Place::Secrets`]); a component `.git` ([`Place::GitDir`]); a
/// component in [`CREDENTIALS`] ([`Place::Credentials`]). Components of
/// `trusted` (the project root) are not judged when `real` lies below it,
/// so a checkout that itself lives under such a name is not all secret.
/// Lexical: the caller resolves links first when the path exists.
#[must_use]
pub fn secret_place(real: &Path, trusted: Option<&Path>) -> Option<Place> {
    if ["/proc", "/sys", "/dev"]
        .iter()
        .any(|s| real.starts_with(s))
    {
        return Some(Place::System);
    }
    if SECRET_FILES.iter().any(|s| real.starts_with(s)) {
        return Some(Place::Secrets);
    }
    let below = trusted
        .and_then(|t| real.strip_prefix(t).ok())
        .unwrap_or(real);
    let names = || below.components().filter_map(|c| c.as_os_str().to_str());
    if names().any(|n| n == ".git") {
        return Some(Place::GitDir);
    }
    if names().any(|n| CREDENTIALS.contains(&n)) {
        return Some(Place::Credentials);
    }
    None
}

/// The real paths a symlink's place is judged against: resolved on the
/// first symlink judged, so a workspace without links costs no `realpath`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Realms {
    /// The lexical paths: project root (none for the user-global
    /// directory), home, dsh home.
    lexical: [Option<PathBuf>; 3],
    real: std::cell::OnceCell<RealPaths>,
}

/// [`Realms`] resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct RealPaths {
    /// The project root (none for the user-global directory).
    root: Option<PathBuf>,
    /// The home directory.
    home: Option<PathBuf>,
    /// The dsh home: a link into it is the user's own instructions.
    dsh_home: Option<PathBuf>,
}

impl Realms {
    /// The realms of `root` (when given), the home and the dsh home.
    pub fn new(root: Option<&Path>, settings: &Settings) -> Self {
        Realms {
            lexical: [
                root.map(Path::to_path_buf),
                settings.home.clone(),
                Some(settings.dsh_home.value.clone()),
            ],
            real: std::cell::OnceCell::new(),
        }
    }

    fn real(&self) -> &RealPaths {
        self.real.get_or_init(|| {
            let real = |p: &Option<PathBuf>| p.as_deref().and_then(|p| fs::canonicalize(p).ok());
            let [root, home, dsh_home] = &self.lexical;
            RealPaths {
                root: real(root),
                home: real(home),
                dsh_home: real(dsh_home),
            }
        })
    }

    /// Classifies a resolved link target: a secret ([`secret_place`]; one
    /// in the home directory outside the project is [`Place::Home`]), else
    /// inside or outside the project root.
    pub fn place(&self, resolved: &Path) -> Place {
        let real = self.real();
        let inside = |p: &Option<PathBuf>| p.as_deref().is_some_and(|p| resolved.starts_with(p));
        let home = real.root.is_some()
            && !inside(&real.root)
            && inside(&real.home)
            && !inside(&real.dsh_home);
        match secret_place(resolved, real.root.as_deref()) {
            Some(Place::Credentials) if home => Place::Home,
            Some(secret) => secret,
            None if inside(&real.root) => Place::Inside,
            None if home => Place::Home,
            None if real.root.is_some() => Place::Outside,
            None => Place::Unknown,
        }
    }
}

impl Realms {
    /// Whether the link at `link`, reading `target`, leaves the project
    /// root (see [`Symlink::outside_root`]).
    fn outside_root(&self, link: &Path, target: &Path, resolved: Option<&Path>) -> Option<bool> {
        let root = self.lexical[0].as_deref()?;
        if let (Some(resolved), Some(real_root)) = (resolved, &self.real().root) {
            return Some(!resolved.starts_with(real_root));
        }
        let base = link.parent().unwrap_or(Path::new("/"));
        Some(!crate::paths::normalize(base, target).starts_with(root))
    }
}

/// Probes `path` like [`probe`] and, for a symlink, records what it points
/// to and where that lies (judged against `realms` when given).
#[must_use]
pub fn probe_link(path: &Path, realms: Option<&Realms>) -> (Probe, Option<Symlink>) {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(err) => return (probe_error(&err), None),
    };
    if !meta.file_type().is_symlink() {
        return (classify(&meta), None);
    }
    let probe = follow(path);
    let Ok(link) = fs::read_link(path) else {
        return (probe, None);
    };
    let resolved = match probe {
        Probe::Missing(_) => None,
        _ => fs::canonicalize(path).ok(),
    };
    let place = match (&resolved, realms) {
        (Some(r), Some(realms)) => realms.place(r),
        _ => Place::Unknown,
    };
    let outside_root = realms.and_then(|r| r.outside_root(path, &link, resolved.as_deref()));
    let symlink = Symlink {
        target: link.to_string_lossy().into_owned(),
        resolved,
        place,
        outside_root,
    };
    (probe, Some(symlink))
}

/// `stat` of a path `lstat` found to be a symlink.
fn follow(path: &Path) -> Probe {
    match fs::metadata(path) {
        Ok(meta) => classify(&meta),
        Err(err)
            if matches!(
                err.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            Probe::Missing(Absence::DanglingLink)
        }
        Err(err) => probe_error(&err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn secret_places_are_judged_by_the_real_path() {
        let place =
            |p: &str, trusted: Option<&str>| secret_place(Path::new(p), trusted.map(Path::new));
        assert_eq!(place("/proc/1/environ", None), Some(Place::System));
        assert_eq!(place("/dev/shm/x", None), Some(Place::System));
        assert_eq!(place("/etc/shadow", None), Some(Place::Secrets));
        assert_eq!(place("/etc/gshadow-", None), Some(Place::Secrets));
        assert_eq!(place("/run/secrets/token", None), Some(Place::Secrets));
        assert_eq!(
            place("/var/run/secrets/kubernetes.io/token", None),
            Some(Place::Secrets)
        );
        assert_eq!(place("/run/secretsx", None), None);
        assert_eq!(place("/etc/passwd", None), None);
        assert_eq!(place("/w/r/.git/config", Some("/w/r")), Some(Place::GitDir));
        assert_eq!(
            place("/other/.git/modules/x/config", Some("/w/r")),
            Some(Place::GitDir)
        );
        assert_eq!(place("/w/r/.github/AGENTS.md", Some("/w/r")), None);
        // A checkout living below a `.git` is not all secret.
        assert_eq!(place("/x/.git/wt/AGENTS.md", Some("/x/.git/wt")), None);
        assert_eq!(place("/home/u/.ssh/id_rsa", None), Some(Place::Credentials));
        assert_eq!(
            place("/root/.aws/credentials", None),
            Some(Place::Credentials)
        );
        assert_eq!(place("/home/u/.netrc", None), Some(Place::Credentials));
        assert_eq!(place("~/.gnupg/*", None), Some(Place::Credentials));
        assert_eq!(place("/home/u/ssh/notes.md", None), None);
        for p in [
            Place::System,
            Place::Secrets,
            Place::GitDir,
            Place::Credentials,
            Place::Home,
        ] {
            assert!(p.is_secret());
            assert_eq!(Place::from_name(p.name()), p);
        }
        assert!(!Place::Inside.is_secret() && !Place::Outside.is_secret());
    }

    #[test]
    fn a_dangling_link_is_judged_by_its_own_target() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("r");
        fs::create_dir_all(&root).unwrap();
        std::os::unix::fs::symlink("../gone.md", root.join("leaves")).unwrap();
        std::os::unix::fs::symlink("sub/gone.md", root.join("stays")).unwrap();
        std::os::unix::fs::symlink("../out.md", root.join("out")).unwrap();
        fs::write(dir.path().join("out.md"), "x").unwrap();
        let realms = Realms {
            lexical: [Some(root.clone()), None, None],
            real: std::cell::OnceCell::new(),
        };
        let outside = |name: &str| {
            let (_, link) = probe_link(&root.join(name), Some(&realms));
            link.map(|l| (l.target, l.place, l.outside_root))
        };
        assert_eq!(
            outside("leaves"),
            Some(("../gone.md".into(), Place::Unknown, Some(true)))
        );
        assert_eq!(
            outside("stays"),
            Some(("sub/gone.md".into(), Place::Unknown, Some(false)))
        );
        assert_eq!(
            outside("out"),
            Some(("../out.md".into(), Place::Outside, Some(true)))
        );
        fs::write(root.join("plain"), "x").unwrap();
        assert_eq!(outside("plain"), None);
        let (_, without_root) = probe_link(&root.join("leaves"), None);
        assert_eq!(without_root.unwrap().outside_root, None);
    }
}
