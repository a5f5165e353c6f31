//! The graph as a ranker for search by intent: a personalized PageRank (a random walk that
//! restarts at the sentence's best lexical hits, by their scores) over the few hundred
//! declarations around them, joined by calls, instantiations, type uses, supertypes, field
//! uses and method references (each way: a caller and its callee say the same about each
//! other) and by membership (a member and its type). What the walk adds to a declaration is
//! what it reaches there beyond its own restart: a hit that other hits lead to, or a
//! declaration between several hits, is where the work of the sentence meets.
//!
//! Owns the walk over an edge list. It must not read the store or score words.

use std::collections::HashMap;

use crate::model::RefKind;

/// How much an edge of each kind carries, against a call's 1.
pub fn edge_weight(kind: RefKind) -> f64 {
    use RefKind::*;
    match kind {
        Calls | Instantiates | MethodRef | Implements | Extends => 1.0,
        UsesField | Expands => 0.5,
        UsesType | Accesses | Annotates => 0.3,
        Imports | Injects | Declares => 0.0,
    }
}

/// The walk's stationary scores, less each node's own restart share: `seeds` (node, weight)
/// is where it restarts (weights normalised), `edges` (a, b, weight) join nodes both ways,
/// `restart` is the chance of a restart at each step. A seed nothing joins says nothing: what
/// it holds beyond its restart is dropped, and it keeps 0. Power iteration, `steps` times.
pub fn personalized_pagerank(seeds: &[(i64, f64)], edges: &[(i64, i64, f64)], restart: f64, steps: usize) -> HashMap<i64, f64> {
    let mut index: HashMap<i64, usize> = HashMap::new();
    let node = |id: i64, index: &mut HashMap<i64, usize>| {
        let n = index.len();
        *index.entry(id).or_insert(n)
    };
    let mut adjacent: Vec<Vec<(usize, f64)>> = Vec::new();
    for &(id, _) in seeds {
        node(id, &mut index);
    }
    let mut joined: Vec<(usize, usize, f64)> = Vec::with_capacity(edges.len());
    for &(a, b, w) in edges {
        if a == b || w <= 0.0 {
            continue;
        }
        joined.push((node(a, &mut index), node(b, &mut index), w));
    }
    adjacent.resize(index.len(), Vec::new());
    for (a, b, w) in joined {
        adjacent[a].push((b, w));
        adjacent[b].push((a, w));
    }
    let total: f64 = seeds.iter().map(|(_, w)| w.max(0.0)).sum();
    let mut start = vec![0.0; index.len()];
    if total <= 0.0 {
        return HashMap::new();
    }
    for &(id, w) in seeds {
        start[index[&id]] += w.max(0.0) / total;
    }
    let out_weight: Vec<f64> = adjacent.iter().map(|a| a.iter().map(|(_, w)| w).sum()).collect();
    let mut score = start.clone();
    for _ in 0..steps {
        let mut next: Vec<f64> = start.iter().map(|s| s * restart).collect();
        for (u, mass) in score.iter().enumerate() {
            // Edges join both ways: only a seed nothing joins has no way on.
            if *mass == 0.0 || out_weight[u] == 0.0 {
                continue;
            }
            let share = mass * (1.0 - restart) / out_weight[u];
            for &(v, w) in &adjacent[u] {
                next[v] += share * w;
            }
        }
        score = next;
    }
    index.into_iter().map(|(id, i)| (id, (score[i] - restart * start[i]).max(0.0))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(scores: &HashMap<i64, f64>) -> Vec<i64> {
        let mut v: Vec<(i64, f64)> = scores.iter().map(|(k, v)| (*k, *v)).collect();
        v.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap().then(a.0.cmp(&b.0)));
        v.into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn the_walk_favours_what_joins_the_seeds() {
        // Seeds 1 and 2 (1 weighs more); 3 joins both; 4 hangs off 1 alone; 5 off 4; 6 is
        // joined to nothing the seeds reach.
        let edges = [(1, 3, 1.0), (2, 3, 1.0), (1, 4, 1.0), (4, 5, 1.0), (6, 7, 1.0)];
        let scores = personalized_pagerank(&[(1, 2.0), (2, 1.0)], &edges, 0.3, 40);
        // 3, between both seeds, first; then what hangs off the heavier seed, before that
        // seed's own returns; the lighter seed; 5, two steps out; 6 and 7 never.
        assert_eq!(ordered(&scores), [3, 4, 1, 2, 5, 6, 7]);
        assert_eq!(scores[&6], 0.0);
        // The mass is a distribution: what was given back of the restart sums to 0.7.
        let sum: f64 = scores.values().sum();
        assert!((sum - 0.7).abs() < 1e-9, "{sum}");
    }

    #[test]
    fn weights_steer_the_walk_and_a_lone_seed_gets_nothing() {
        // From seed 1, a call (1.0) to 2 and a type use (0.3) of 3.
        let edges = [(1, 2, edge_weight(RefKind::Calls)), (1, 3, edge_weight(RefKind::UsesType))];
        let scores = personalized_pagerank(&[(1, 1.0)], &edges, 0.3, 40);
        // The callee first, then what comes back to the seed, then the type used.
        assert_eq!(ordered(&scores), [2, 1, 3]);
        assert!(scores[&2] > 3.0 * scores[&3] - 1e-9);
        assert!(personalized_pagerank(&[(9, 1.0)], &[], 0.3, 10).values().all(|s| *s == 0.0));
        assert!(personalized_pagerank(&[], &edges, 0.3, 10).is_empty());
    }
}
