//! The table's memory, with transparent huge pages on Linux.
//!
//! A table of 2 MiB or more is mapped on a 2 MiB boundary and advised `MADV_HUGEPAGE`, so that
//! a kernel whose `transparent_hugepage` setting is `madvise` (or `always`) backs it with 2 MiB
//! pages: one TLB entry then covers 32768 clusters instead of 64, which is what large tables
//! gain (Stockfish's users measured 5-20% more nodes a second at big hash sizes). Every page is
//! touched once at allocation, as the zeroing of a `Vec` did before, so the memory is had at
//! `setoption` time and not during a search; the count of huge pages the process gained while
//! touching (`/proc/self/smaps_rollup`) says what the system gave.
//!
//! Elsewhere (another system, a table under 2 MiB, a kernel that refuses, or the environment
//! variable `NULLWINDOW_HUGEPAGES=0`, which is there to measure the difference) the table is a
//! plain zeroed `Vec`, as it always was, and [`Pages`] says why.

use std::fmt;
use std::ptr::NonNull;

use super::Cluster;

/// Size of a transparent huge page on x86-64 and most of the systems that have them.
pub const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// What pages back a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pages {
    /// Transparent huge pages back `huge_mb` of the table's `table_mb` megabytes.
    Huge { huge_mb: usize, table_mb: usize },
    /// Huge pages were asked for, and the system does not say whether it gave them.
    Asked,
    /// Ordinary pages, and why.
    Small(String),
}

impl Pages {
    /// Whether any of the table is on huge pages.
    pub fn is_huge(&self) -> bool {
        matches!(self, Pages::Huge { huge_mb, .. } if *huge_mb > 0)
    }
}

impl fmt::Display for Pages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pages::Huge { huge_mb, table_mb } if huge_mb >= table_mb => {
                write!(f, "transparent huge pages")
            }
            Pages::Huge { huge_mb, table_mb } => {
                write!(f, "transparent huge pages for {huge_mb} of {table_mb} MB")
            }
            Pages::Asked => write!(
                f,
                "transparent huge pages asked for (the system does not say whether it gave them)"
            ),
            Pages::Small(why) => write!(f, "4 KiB pages ({why})"),
        }
    }
}

/// Whether huge pages are wanted: unless `NULLWINDOW_HUGEPAGES` is `0`, `off` or `false`.
pub fn huge_pages_wanted() -> bool {
    !matches!(
        std::env::var("NULLWINDOW_HUGEPAGES").ok().as_deref(),
        Some("0" | "off" | "false")
    )
}

/// Why a table is on ordinary pages when huge ones are turned off.
const OFF: &str = "huge pages off: NULLWINDOW_HUGEPAGES=0";

/// Who frees the memory.
enum Owner {
    /// A zeroed `Vec` (the plain allocation).
    Vec(Vec<Cluster>),
    /// An anonymous mapping of `bytes` bytes at `base`.
    #[cfg(target_os = "linux")]
    Mapped { base: NonNull<u8>, bytes: usize },
}

/// `len` zeroed clusters that stay where they are until dropped (a `Vec` that never grows, or a
/// mapping), read as a slice.
pub struct ClusterMemory {
    ptr: NonNull<Cluster>,
    len: usize,
    owner: Owner,
    pages: Pages,
}

// SAFETY: the memory is owned by the value alone (a `Vec`'s buffer or a private mapping that
// only `Drop` unmaps), and `Cluster` is `Send + Sync` (atomics only), so the clusters may be
// moved to and shared between threads as a `Vec<Cluster>` may.
unsafe impl Send for ClusterMemory {}
// SAFETY: as for `Send`: shared access is `&[Cluster]`, which is `Sync`.
unsafe impl Sync for ClusterMemory {}

impl ClusterMemory {
    /// No clusters.
    pub fn empty() -> ClusterMemory {
        ClusterMemory::from_vec(Vec::new(), Pages::Small("empty table".into()))
    }

    /// `len` zeroed clusters (at least one): on huge pages when `huge` and the system allows,
    /// else in a plain `Vec`. `mb` names the size in the error.
    pub fn new(len: usize, mb: usize, huge: bool) -> Result<ClusterMemory, String> {
        let len = len.max(1);
        let bytes = len
            .checked_mul(std::mem::size_of::<Cluster>())
            .ok_or_else(|| format!("cannot allocate {mb} MB for the hash table (too large)"))?;
        if bytes < HUGE_PAGE {
            return ClusterMemory::plain(len, mb, "table under 2 MiB".into());
        }
        #[cfg(target_os = "linux")]
        {
            ClusterMemory::mapped(len, bytes, mb, huge)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let why = if huge {
                "huge pages are asked for on Linux only"
            } else {
                OFF
            };
            ClusterMemory::plain(len, mb, why.into())
        }
    }

    /// What pages back the clusters.
    pub fn pages(&self) -> &Pages {
        &self.pages
    }

    /// The clusters.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Cluster] {
        // SAFETY: `ptr` points to `len` initialised (zeroed or since written through atomics)
        // clusters that live as long as `self` (see `Owner`), and nothing hands out `&mut`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    fn from_vec(v: Vec<Cluster>, pages: Pages) -> ClusterMemory {
        let mut v = v;
        // A `Vec`'s buffer does not move when the `Vec` does; the pointer is dangling (and
        // never read) only when `len` is 0.
        let ptr = NonNull::new(v.as_mut_ptr()).unwrap_or(NonNull::dangling());
        ClusterMemory {
            ptr,
            len: v.len(),
            owner: Owner::Vec(v),
            pages,
        }
    }

    /// A zeroed `Vec` of `len` clusters, on ordinary pages for the reason `why`.
    fn plain(len: usize, mb: usize, why: String) -> Result<ClusterMemory, String> {
        let mut v: Vec<Cluster> = Vec::new();
        v.try_reserve_exact(len)
            .map_err(|e| format!("cannot allocate {mb} MB for the hash table ({e})"))?;
        v.resize_with(len, Cluster::default);
        Ok(ClusterMemory::from_vec(v, Pages::Small(why)))
    }

    /// An anonymous mapping of `bytes` (one huge page more, to start on a huge-page boundary),
    /// advised `MADV_HUGEPAGE` (`MADV_NOHUGEPAGE` when not `huge`, so that a kernel set to
    /// `always` does not give them either) and touched page by page.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize, mb: usize, huge: bool) -> Result<ClusterMemory, String> {
        let total = bytes
            .checked_add(HUGE_PAGE)
            .ok_or_else(|| format!("cannot allocate {mb} MB for the hash table (too large)"))?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            let e = std::io::Error::last_os_error();
            return Err(format!("cannot allocate {mb} MB for the hash table ({e})"));
        }
        let Some(base) = NonNull::new(base as *mut u8) else {
            return Err(format!("cannot allocate {mb} MB for the hash table"));
        };
        let skip = (HUGE_PAGE - base.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `skip < HUGE_PAGE`, so `start .. start + bytes` lies within the mapping.
        let start = unsafe { base.as_ptr().add(skip) };
        let owner = Owner::Mapped { base, bytes: total };
        // SAFETY: advice on a range of our own mapping; it changes no contents.
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        let advised = unsafe { libc::madvise(start as *mut libc::c_void, bytes, advice) };
        let refused = (advised != 0).then(std::io::Error::last_os_error);
        let before = anon_huge_kb();
        for off in (0..bytes).step_by(4096) {
            // SAFETY: within the mapping, which is readable and writable and zero already;
            // writing a zero is what faults the page in (as a huge page when advised).
            unsafe { start.add(off).write_volatile(0) };
        }
        let pages = match (refused, before, anon_huge_kb()) {
            _ if !huge => Pages::Small(OFF.into()),
            (Some(e), _, _) => Pages::Small(format!("system refused huge pages: {e}")),
            (None, Some(b), Some(a)) => {
                let table_mb = bytes / (1024 * 1024);
                let huge_mb = (a.saturating_sub(b) / 1024).min(table_mb);
                if huge_mb > 0 {
                    Pages::Huge { huge_mb, table_mb }
                } else {
                    Pages::Small(format!(
                        "system gave no huge pages; transparent_hugepage: {}",
                        thp_setting()
                    ))
                }
            }
            _ => Pages::Asked,
        };
        let ptr = NonNull::new(start as *mut Cluster).unwrap_or(NonNull::dangling());
        Ok(ClusterMemory {
            ptr,
            len,
            owner,
            pages,
        })
    }

    /// The table's first byte (tests: to find its mapping).
    #[cfg(test)]
    pub fn start(&self) -> usize {
        self.ptr.as_ptr() as usize
    }
}

impl Drop for ClusterMemory {
    fn drop(&mut self) {
        match &mut self.owner {
            // The buffer goes with the `Vec`.
            Owner::Vec(v) => drop(std::mem::take(v)),
            #[cfg(target_os = "linux")]
            Owner::Mapped { base, bytes } => {
                // SAFETY: the mapping made in `mapped`, unmapped once; the slice handed out by
                // `as_slice` cannot outlive `self`.
                unsafe { libc::munmap(base.as_ptr() as *mut libc::c_void, *bytes) };
            }
        }
    }
}

/// The process's anonymous memory on transparent huge pages, in KiB (`None`: unknown).
#[cfg(target_os = "linux")]
fn anon_huge_kb() -> Option<usize> {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    smaps_field_kb(&rollup, "AnonHugePages:")
}

/// The value of the first `field` line (`Name:   123 kB`) of an smaps text.
pub fn smaps_field_kb(text: &str, field: &str) -> Option<usize> {
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The kernel's transparent huge page mode (the bracketed word of its setting), or `unknown`.
#[cfg(target_os = "linux")]
fn thp_setting() -> String {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .ok()
        .and_then(|s| {
            let open = s.find('[')?;
            let close = s[open..].find(']')?;
            Some(s[open + 1..open + close].to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `AnonHugePages` of the mapping of this process that holds `addr`, in KiB.
    #[cfg(target_os = "linux")]
    fn huge_kb_at(addr: usize) -> Option<usize> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = head.split_once('-')
                && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
            {
                inside = (a..b).contains(&addr);
                continue;
            }
            if inside && let Some(kb) = smaps_field_kb(line, "AnonHugePages:") {
                return Some(kb);
            }
        }
        None
    }

    #[test]
    fn smaps_fields_parse() {
        let text = "Rss:  100 kB\nAnonHugePages:    4096 kB\nSwap: 0 kB\n";
        assert_eq!(smaps_field_kb(text, "AnonHugePages:"), Some(4096));
        assert_eq!(smaps_field_kb(text, "Shared_Hugetlb:"), None);
    }

    #[test]
    fn small_and_refused_tables_say_why() {
        let m = ClusterMemory::new(1000, 0, true).unwrap();
        assert_eq!(m.pages(), &Pages::Small("table under 2 MiB".into()));
        assert!(m.as_slice().len() == 1000);
        let m = ClusterMemory::new(HUGE_PAGE / 64 * 4, 8, false).unwrap();
        assert!(!m.pages().is_huge());
        assert!(m.pages().to_string().contains("NULLWINDOW_HUGEPAGES=0"));
        assert_eq!(
            Pages::Huge {
                huge_mb: 6,
                table_mb: 8
            }
            .to_string(),
            "transparent huge pages for 6 of 8 MB"
        );
    }

    /// Where the kernel hands out transparent huge pages on request, a 64 MB table gets them,
    /// and the kernel's own account of the table's mapping agrees; the memory reads as zeros.
    #[cfg(target_os = "linux")]
    #[test]
    fn large_tables_get_huge_pages_where_the_kernel_gives_them() {
        let mb = 64;
        let m = ClusterMemory::new(mb * 1024 * 1024 / 64, mb, true).unwrap();
        assert_eq!(m.start() % HUGE_PAGE, 0);
        assert_eq!(m.as_slice().len(), mb * 1024 * 1024 / 64);
        assert!(m.as_slice().iter().all(|c| {
            c.slots
                .iter()
                .all(|s| s.data.load(std::sync::atomic::Ordering::Relaxed) == 0)
        }));
        let setting = thp_setting();
        if setting == "always" || setting == "madvise" {
            assert!(m.pages().is_huge(), "{setting}: {}", m.pages());
            let kb = huge_kb_at(m.start()).expect("the table's mapping in /proc/self/smaps");
            assert!(kb >= 2048, "AnonHugePages {kb} kB");
        } else {
            assert!(!m.pages().is_huge());
        }
        drop(m);
        // Off: advised against, so no huge pages even where the kernel gives them always.
        let m = ClusterMemory::new(mb * 1024 * 1024 / 64, mb, false).unwrap();
        assert!(!m.pages().is_huge());
        assert_eq!(huge_kb_at(m.start()), Some(0));
    }
}
