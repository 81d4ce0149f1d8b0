// pto-isa's communication instructions (pto-isa docs/isa/comm) as ptolab
// implements them on ptosim: docs/many-devices.md.
#pragma once
#include <pto/comm/comm_types.hpp>
#include <pto/comm/TPut.hpp>
#include <pto/comm/TGet.hpp>
#include <pto/comm/TNotify.hpp>
#include <pto/comm/TWait.hpp>
#include <pto/comm/TTest.hpp>
#include <pto/comm/TBroadCast.hpp>
#include <pto/comm/TGather.hpp>
#include <pto/comm/TScatter.hpp>
#include <pto/comm/TReduce.hpp>
#include <pto/comm/TPutAsync.hpp>
#include <pto/comm/TCcu.hpp>
