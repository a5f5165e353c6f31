//! Watch mode: notify events -> a short debounce -> batches of paths -> the long-lived
//! `Indexer`, on one indexer thread. Queries never wait for it: they read the last
//! committed state (SQLite WAL), and every batch commits as one transaction. When the OS
//! watcher overflows or asks for a rescan, or cannot watch at all, it falls back to a full
//! reconcile or to polling, and says so in the log; it never silently stops watching.
//!
//! The debounce is hand-written (a channel and `recv_timeout`) rather than taken from
//! `notify-debouncer-*`: the indexer re-stats every path anyway, so rename pairing and
//! event merging would buy nothing, and a hard cap on how long a storm may delay a batch
//! is one line here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use notify::{RecursiveMode, Watcher as _};

use crate::index::IndexStatus;
use crate::index::{Indexer, Options, Summary};
use crate::store;

/// How long the tree must be quiet before a batch is indexed.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(50);
/// The longest a stream of events may hold a batch back.
const MAX_BATCH_DELAY: Duration = Duration::from_millis(1000);
/// Batches with more paths than this are a full reconcile (a `git checkout`).
const FULL_RECONCILE_PATHS: usize = 5_000;
/// How long the indexer thread waits after a batch before it tidies the index (merges the
/// full-text segments saves added, in steps of ~4 ms on java.base; a save that arrives
/// meanwhile waits for one step, and the rest waits for the next quiet spell).
const TIDY_AFTER: Duration = Duration::from_secs(2);

#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// Watch the file system (false: only the start-up reconcile and explicit syncs).
    pub watch: bool,
    pub debounce: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions { watch: true, debounce: DEFAULT_DEBOUNCE }
    }
}

enum Job {
    Paths(Vec<PathBuf>),
    Full(&'static str),
    /// Read-your-writes: index these now and signal when done.
    Sync(Vec<PathBuf>, Sender<()>),
}

/// Counters that tell when everything seen has been indexed.
#[derive(Default)]
struct Progress {
    events: AtomicU64,
    /// New directories waiting for their second look.
    revisits: AtomicU64,
    batches_sent: AtomicU64,
    batches_done: AtomicU64,
    ready: AtomicBool,
}

/// A running indexer thread and, optionally, the file watcher feeding it.
pub struct Watch {
    jobs: Sender<Job>,
    progress: Arc<Progress>,
    pub status: Arc<IndexStatus>,
    debounce: Duration,
    _watcher: Option<Box<dyn notify::Watcher + Send>>,
}

/// Called after each batch with what it did.
pub type OnBatch = Box<dyn Fn(&Summary) + Send>;

impl Watch {
    /// Starts the indexer thread, which first reconciles the whole tree (finding what
    /// changed while nothing was watching), then the watcher if `opts.watch`.
    pub fn start(root: &Path, index_opts: Options, opts: WatchOptions, on_batch: OnBatch) -> anyhow::Result<Watch> {
        let root = root.canonicalize()?;
        let status = Arc::new(IndexStatus::default());
        // Building from now on, not from when the thread first runs: a tool call that
        // arrives before the thread is scheduled waits for the first build rather than
        // finding no index (seen as "no index at ...; run `repochart index` first" in 1 of
        // 5 loaded test runs).
        status.building.store(true, Ordering::SeqCst);
        let progress = Arc::new(Progress::default());
        let (jobs, job_rx) = crossbeam_channel::unbounded::<Job>();
        let index_opts_history = index_opts.history;
        // History is read in the background for a git work tree; elsewhere (or disabled)
        // its absence is recorded before tools answer, so that they say so from the start.
        let git = index_opts_history.enabled && gix::discover(&root).is_ok();
        status.history_reading.store(git, Ordering::SeqCst);
        {
            let (root, status, progress) = (root.clone(), status.clone(), progress.clone());
            std::thread::Builder::new()
                .name("repochart-indexer".into())
                .spawn(move || indexer_loop(&root, index_opts, job_rx, &status, &progress, on_batch))?;
        }
        {
            // Weak: the thread ends once the watch and its tools are gone.
            let (root, status, progress, config) = (root.clone(), Arc::downgrade(&status), progress.clone(), index_opts_history);
            std::thread::Builder::new().name("repochart-history".into()).spawn(move || history_loop(&root, config, status, &progress))?;
        }
        let watcher = if opts.watch {
            let (raw_tx, raw_rx) = crossbeam_channel::unbounded::<notify::Result<notify::Event>>();
            let watcher = start_watcher(&root, raw_tx)?;
            status.watching.store(true, Ordering::SeqCst);
            let (jobs, status, progress, debounce, root) = (jobs.clone(), status.clone(), progress.clone(), opts.debounce, root.clone());
            std::thread::Builder::new()
                .name("repochart-debounce".into())
                .spawn(move || debounce_loop(&root, raw_rx, jobs, &status, &progress, debounce))?;
            Some(watcher)
        } else {
            None
        };
        Ok(Watch { jobs, progress, status, debounce: opts.debounce, _watcher: watcher })
    }

    /// Indexes these paths now and waits until they are in the index (or `timeout`).
    pub fn sync(&self, paths: Vec<PathBuf>, timeout: Duration) -> bool {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.progress.batches_sent.fetch_add(1, Ordering::SeqCst);
        if self.jobs.send(Job::Sync(paths, tx)).is_err() {
            return false;
        }
        rx.recv_timeout(timeout).is_ok()
    }

    /// A function tools can call for read-your-writes.
    pub fn syncer(&self) -> crate::index::Syncer {
        let jobs = self.jobs.clone();
        let progress = self.progress.clone();
        Arc::new(move |paths: Vec<PathBuf>| {
            let (tx, rx) = crossbeam_channel::bounded(1);
            progress.batches_sent.fetch_add(1, Ordering::SeqCst);
            if jobs.send(Job::Sync(paths, tx)).is_ok() {
                let _ = rx.recv_timeout(Duration::from_secs(5));
            }
        })
    }

    /// True when every change seen so far is in the index.
    pub fn is_idle(&self) -> bool {
        self.progress.ready.load(Ordering::SeqCst)
            && self.progress.revisits.load(Ordering::SeqCst) == 0
            && self.progress.batches_sent.load(Ordering::SeqCst) == self.progress.batches_done.load(Ordering::SeqCst)
    }

    /// Waits until the start-up reconcile is done, every event seen has been indexed, and
    /// the tree has been quiet for a few debounce periods. False on `timeout`.
    pub fn settle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let quiet = self.debounce * 4 + Duration::from_millis(50);
        let mut last_events = u64::MAX;
        let mut quiet_since = Instant::now();
        while Instant::now() < deadline {
            let events = self.progress.events.load(Ordering::SeqCst);
            let idle = self.progress.ready.load(Ordering::SeqCst)
                && self.progress.revisits.load(Ordering::SeqCst) == 0
                && self.progress.batches_sent.load(Ordering::SeqCst) == self.progress.batches_done.load(Ordering::SeqCst);
            if events != last_events || !idle {
                last_events = events;
                quiet_since = Instant::now();
            } else if quiet_since.elapsed() >= quiet {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

fn start_watcher(root: &Path, raw_tx: Sender<notify::Result<notify::Event>>) -> anyhow::Result<Box<dyn notify::Watcher + Send>> {
    let tx = raw_tx.clone();
    let native = notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    });
    match native.and_then(|mut w| w.watch(root, RecursiveMode::Recursive).map(|_| w)) {
        Ok(w) => Ok(Box::new(w)),
        Err(e) => {
            // Typically the inotify watch limit (fs.inotify.max_user_watches).
            tracing::warn!("the native file watcher failed ({e}); polling the tree every 2 s instead");
            let config = notify::Config::default().with_poll_interval(Duration::from_secs(2));
            let mut poll = notify::PollWatcher::new(
                move |event| {
                    let _ = raw_tx.send(event);
                },
                config,
            )?;
            poll.watch(root, RecursiveMode::Recursive)?;
            Ok(Box::new(poll))
        }
    }
}

/// True for paths the index itself writes, or git's own files: never a reason to index.
fn is_own_noise(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else { return true };
    let mut parts = rel.components();
    match parts.next().map(|c| c.as_os_str().to_string_lossy().to_string()) {
        Some(first) if first == store::INDEX_DIR || first == store::LEGACY_INDEX_DIR => true,
        Some(first) if first == ".git" => rel != Path::new(".git/info/exclude"),
        _ => false,
    }
}

/// What an event asks of the indexer: the tree's paths it changed, and whether the watcher
/// wants a rescan (an error counts as one). An event with neither (a read, a write to the
/// index's own files or git's) must not hold a batch back: a client reading the index every
/// few ms (the server's own tools, a poller) would otherwise keep every batch waiting for
/// `MAX_BATCH_DELAY` (143 changed files of java.base were found 1.6 s after the last write
/// while a reader polled, where indexing them took 0.55 s).
fn reasons(root: &Path, event: notify::Result<notify::Event>) -> (Vec<PathBuf>, bool) {
    match event {
        Ok(event) => {
            let rescan = event.need_rescan();
            // Reads (ours included: the walk opens ignore files) change nothing.
            if matches!(event.kind, notify::EventKind::Access(a) if a != notify::event::AccessKind::Close(notify::event::AccessMode::Write))
            {
                return (Vec::new(), rescan);
            }
            (event.paths.into_iter().filter(|p| !is_own_noise(root, p)).collect(), rescan)
        }
        Err(e) => {
            tracing::warn!("file watcher error ({e}); reconciling the whole tree");
            (Vec::new(), true)
        }
    }
}

fn debounce_loop(
    root: &Path,
    raw: Receiver<notify::Result<notify::Event>>,
    jobs: Sender<Job>,
    status: &IndexStatus,
    progress: &Progress,
    debounce: Duration,
) {
    // A directory created a moment ago may get files before its own watch is in place, and
    // those files send no event: new directories are walked again a little later.
    let mut revisits: Vec<(Instant, Vec<PathBuf>)> = Vec::new();
    loop {
        let first = match revisits.first() {
            Some((due, _)) => match raw.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    let (_, dirs) = revisits.remove(0);
                    progress.batches_sent.fetch_add(1, Ordering::SeqCst);
                    progress.revisits.fetch_sub(1, Ordering::SeqCst);
                    if jobs.send(Job::Paths(dirs)).is_err() {
                        return;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            },
            None => match raw.recv() {
                Ok(event) => event,
                Err(_) => return,
            },
        };
        let started = Instant::now();
        let mut paths: BTreeSet<PathBuf> = BTreeSet::new();
        let mut rescan = false;
        // Only events that are a reason to index hold the batch back (`reasons`).
        let mut take = |event: notify::Result<notify::Event>, paths: &mut BTreeSet<PathBuf>| {
            let (changed, asks_rescan) = reasons(root, event);
            rescan |= asks_rescan;
            let counts = asks_rescan || !changed.is_empty();
            paths.extend(changed);
            counts
        };
        progress.events.fetch_add(1, Ordering::SeqCst);
        if !take(first, &mut paths) {
            continue;
        }
        let mut quiet_until = Instant::now() + debounce;
        loop {
            match raw.recv_timeout(quiet_until.saturating_duration_since(Instant::now())) {
                Ok(event) => {
                    progress.events.fetch_add(1, Ordering::SeqCst);
                    if take(event, &mut paths) {
                        quiet_until = Instant::now() + debounce;
                    }
                    if started.elapsed() > MAX_BATCH_DELAY {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        if rescan {
            tracing::info!("the watcher asked for a rescan; reconciling the whole tree");
        }
        if !rescan && paths.is_empty() {
            continue;
        }
        tracing::debug!(paths = paths.len(), rescan, "batch of changes");
        let dirs: Vec<PathBuf> = paths.iter().filter(|p| p.is_dir()).cloned().collect();
        if !dirs.is_empty() {
            progress.revisits.fetch_add(1, Ordering::SeqCst);
            revisits.push((Instant::now() + debounce * 3, dirs));
        }
        status.pending.fetch_add(paths.len().max(1), Ordering::SeqCst);
        progress.batches_sent.fetch_add(1, Ordering::SeqCst);
        let job = if rescan || paths.len() > FULL_RECONCILE_PATHS {
            Job::Full("watcher rescan or a large batch")
        } else {
            Job::Paths(paths.into_iter().collect())
        };
        if jobs.send(job).is_err() {
            return;
        }
    }
}

fn indexer_loop(root: &Path, opts: Options, jobs: Receiver<Job>, status: &IndexStatus, progress: &Progress, on_batch: OnBatch) {
    let report = |done: usize, total: usize| {
        status.done.store(done, Ordering::Relaxed);
        status.total.store(total, Ordering::Relaxed);
    };
    status.building.store(true, Ordering::SeqCst);
    let mut indexer = match Indexer::open(root, &opts) {
        Ok(i) => i,
        Err(e) => {
            tracing::error!("cannot open the index: {e:#}");
            *status.error.lock().expect("status lock") = Some(format!("{e:#}"));
            status.building.store(false, Ordering::SeqCst);
            progress.ready.store(true, Ordering::SeqCst);
            return;
        }
    };
    run(&mut indexer, None, status, &report, &on_batch);
    if !status.history_reading.load(Ordering::SeqCst) {
        // No git history to read (or reading it is disabled): say so, at once.
        match store::Store::open_read(root).map_err(anyhow::Error::from).and_then(|s| crate::git::history::refresh(&s, &opts.history)) {
            Ok(state) => tracing::info!("{}", state.describe()),
            Err(e) => tracing::warn!("recording git history's state: {e:#}"),
        }
    }
    // Tools answer from here on; saves queue until this is done.
    if let Err(e) = indexer.prepare_updates() {
        // The first update builds them instead.
        tracing::warn!("preparing the index for updates: {e:#}");
    }
    progress.ready.store(true, Ordering::SeqCst);
    // Saves queue meanwhile.
    if let Err(e) = indexer.preload() {
        // The first update loads it instead.
        tracing::warn!("loading the resolver's world: {e:#}");
    }
    give_back_memory(&mut indexer);
    // Whether a batch ran since the index was last tidied (`Indexer::tidy`).
    let mut untidy = false;
    loop {
        let job = match jobs.recv_timeout(TIDY_AFTER) {
            Ok(job) => job,
            Err(RecvTimeoutError::Timeout) => {
                if untidy {
                    // Step by step, so that a save arriving meanwhile waits for one step.
                    let started = Instant::now();
                    let mut steps = 0;
                    while jobs.is_empty() {
                        match indexer.tidy_step() {
                            Ok(true) => steps += 1,
                            Ok(false) => untidy = false,
                            Err(e) => {
                                tracing::warn!("tidying the index: {e:#}");
                                untidy = false;
                            }
                        }
                        if !untidy {
                            tracing::debug!(ms = started.elapsed().as_millis() as u64, steps, "tidied the index");
                            indexer.checkpoint();
                            give_back_memory(&mut indexer);
                            break;
                        }
                    }
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        untidy = true;
        // Coalesce whatever else is queued into one batch.
        let mut paths: BTreeSet<PathBuf> = BTreeSet::new();
        let mut full = false;
        let mut waiters = Vec::new();
        let mut batches = 0u64;
        let mut absorb = |job: Job| {
            batches += 1;
            match job {
                Job::Paths(p) => paths.extend(p),
                Job::Full(reason) => {
                    tracing::info!("full reconcile: {reason}");
                    full = true;
                }
                Job::Sync(p, done) => {
                    paths.extend(p);
                    waiters.push(done);
                }
            }
        };
        absorb(job);
        while let Ok(job) = jobs.try_recv() {
            absorb(job);
        }
        status.building.store(true, Ordering::SeqCst);
        let paths: Vec<PathBuf> = paths.into_iter().collect();
        run(&mut indexer, if full { None } else { Some(&paths) }, status, &report, &on_batch);
        status.pending.store(0, Ordering::SeqCst);
        for w in waiters {
            let _ = w.send(());
        }
        // What the batch wrote goes from the log into the database file once readers see it
        // (and the reads that waited for it have gone on), while the tools' caches are
        // refreshed from it: the next batch, often a second or two away while an agent
        // edits, starts from a short log.
        indexer.checkpoint();
        progress.batches_done.fetch_add(batches, Ordering::SeqCst);
    }
}

/// How often the history thread looks whether `HEAD` moved.
const HEAD_POLL: Duration = Duration::from_secs(2);

/// Reads git history once the index is ready (tools answer meanwhile, saying so), then
/// again, incrementally, whenever `HEAD` moves (a commit, a pull, a checkout).
fn history_loop(root: &Path, config: crate::config::HistoryConfig, status: std::sync::Weak<IndexStatus>, progress: &Progress) {
    let alive = || status.strong_count() > 0;
    while !progress.ready.load(Ordering::SeqCst) {
        if !alive() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let head_of = |repo: &Option<gix::Repository>| repo.as_ref().and_then(|r| r.head_id().ok()).map(|id| id.detach());
    let mut repo = if config.enabled { gix::discover(root).ok() } else { None };
    // A work tree without git was recorded as such by the indexer thread: nothing to read
    // until a repository appears (`git init`).
    let mut seen = None;
    let mut first = repo.is_some();
    loop {
        let head = head_of(&repo);
        if first || head != seen {
            if let Some(s) = status.upgrade() {
                s.history_reading.store(first, Ordering::SeqCst);
            }
            match store::Store::open_read(root).map_err(anyhow::Error::from).and_then(|s| crate::git::history::refresh(&s, &config)) {
                Ok(state) => tracing::info!("{} ({} walked in {} ms)", state.describe(), state.walked, state.ms),
                Err(e) => tracing::warn!("reading git history: {e:#}"),
            }
            seen = head;
            first = false;
            match status.upgrade() {
                Some(s) => s.history_reading.store(false, Ordering::SeqCst),
                None => return,
            }
        }
        if !alive() {
            return;
        }
        std::thread::sleep(HEAD_POLL);
        if repo.is_none() && config.enabled {
            repo = gix::discover(root).ok();
        }
    }
}

fn run(indexer: &mut Indexer, paths: Option<&[PathBuf]>, status: &IndexStatus, report: &dyn Fn(usize, usize), on_batch: &OnBatch) {
    status.building.store(true, Ordering::SeqCst);
    report(0, 0);
    let result = match paths {
        None => indexer.full(report),
        Some(paths) => indexer.update(paths, report),
    };
    match result {
        Ok(summary) => {
            *status.error.lock().expect("status lock") = None;
            if summary.untracked {
                status.untracked_runs.fetch_add(1, Ordering::SeqCst);
            }
            on_batch(&summary);
        }
        Err(e) => {
            tracing::error!("indexing failed: {e:#}");
            *status.error.lock().expect("status lock") = Some(format!("{e:#}"));
        }
    }
    status.building.store(false, Ordering::SeqCst);
    give_back_memory(indexer);
}

/// After a batch: the indexer's page cache and the allocator's free memory go back to the system.
fn give_back_memory(indexer: &mut Indexer) {
    let started = Instant::now();
    indexer.release_memory();
    trim_heap();
    tracing::debug!(us = started.elapsed().as_micros() as u64, "trimmed");
}

/// Returns the allocator's free memory to the system. glibc keeps what a batch freed (the
/// heap of every thread that allocated) until asked; a server would sit at its peak.
/// (`malloc_trim` is in every glibc; `mallinfo2`, which this once logged, needs 2.33 and
/// kept the release binary, built for glibc 2.28, from linking.)
pub fn trim_heap() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only walks and releases the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// For a long-lived server: every allocation of 1 MB or more gets pages of its own, given
/// back when it is freed. glibc otherwise raises that threshold each time such a block is
/// freed (up to 32 MB), and the graphs and tables rebuilt after each save then land in the
/// heap among small long-lived blocks, where the trim cannot return them: the java.base
/// server idled at 127-163 MB of anonymous memory after two saves instead of 96-98 MB.
/// At 128 KB the same, but a graph call's own tables paid for fresh pages each time
/// (change_impact p50 7.3 -> 10.0 ms in a serve session); at 1 MB neither.
pub fn tune_allocator() {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only sets an allocator parameter.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, AccessMode, DataChange, EventKind, Flag, ModifyKind};

    #[test]
    fn only_changes_to_the_tree_are_reasons_to_index() {
        let root = Path::new("/r");
        let on = |kind: EventKind, path: &str| Ok(notify::Event::new(kind).add_path(PathBuf::from(path)));
        let write = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        let source = || vec![PathBuf::from("/r/src/A.java")];
        assert_eq!(reasons(root, on(write, "/r/src/A.java")), (source(), false));
        assert_eq!(reasons(root, on(EventKind::Access(AccessKind::Close(AccessMode::Write)), "/r/src/A.java")), (source(), false));
        // A reader of the index, git, and reads of the tree: no reason to index, so they
        // must not hold a batch back.
        assert_eq!(reasons(root, on(write, "/r/.repochart/index.db-shm")), (vec![], false));
        assert_eq!(reasons(root, on(write, "/r/.git/index")), (vec![], false));
        assert_eq!(reasons(root, on(EventKind::Access(AccessKind::Open(AccessMode::Read)), "/r/src/A.java")), (vec![], false));
        assert_eq!(reasons(root, on(write, "/elsewhere/B.java")), (vec![], false));
        // git's exclude file decides what is indexed.
        assert_eq!(reasons(root, on(write, "/r/.git/info/exclude")), (vec![PathBuf::from("/r/.git/info/exclude")], false));
        assert_eq!(reasons(root, Ok(notify::Event::new(EventKind::Other).set_flag(Flag::Rescan))), (vec![], true));
        assert_eq!(reasons(root, Err(notify::Error::generic("queue overflow"))), (vec![], true));
    }
}
